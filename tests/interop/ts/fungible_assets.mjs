// A fungible asset issued by a module of its own, driven through the SDK the way its
// your_fungible_asset.ts example goes, against a local network (Network.LOCAL: the node API,
// faucet and indexer on their default ports):
//
//   the issuer, Alice and Bob funded by the faucet (fundAccount); fa_coin published at the
//   issuer's address (publishPackageTransaction); its get_metadata view (aptos.view); 5,000
//   minted to Alice (fa_coin::mint); Alice sends Bob 1,200 (transferFungibleAsset); Bob
//   frozen, his send of 200 refused; Bob unfrozen, the same send committed; 300 burnt from
//   Bob; then the reads: getCurrentFungibleAssetBalances, getFungibleAssetMetadata(ByAssetType),
//   getFungibleAssetActivities, getAccountCoinsData, getAccountCoinAmount, getBalance and
//   the view 0x1::primary_fungible_store::balance.
//
//   node fungible_assets.mjs <metadata-hex> <module-hex>
// (the issuer's key in LEDGERKIT_INTEROP_KEY: a fresh account the module is written for;
// Alice and Bob are generated here; the SDK release in LEDGERKIT_TS_SDK, see steps.mjs)
//
// Prints one JSON object of step results; test_interop_ts_fungible_assets.py checks them.

import { SDK_PACKAGE, bound, describe, results, run, step } from "./steps.mjs";

const { Account, AccountAddress, Aptos, AptosConfig, Ed25519PrivateKey, Network } = await import(
  SDK_PACKAGE
);

const DEADLINE_MS = 150_000;
// 10 APT: the SDK's default max gas (2,000,000 units at 100 octas) must be covered to submit.
const FUNDING = 1_000_000_000;
const [metadataBytes, moduleBytecode] = process.argv.slice(2);
bound(DEADLINE_MS);

const aptos = new Aptos(new AptosConfig({ network: Network.LOCAL }));

function committed(txn) {
  return { hash: txn.hash, version: txn.version, success: txn.success, vm_status: txn.vm_status };
}

async function main() {
  const issuer = Account.fromPrivateKey({
    privateKey: new Ed25519PrivateKey(process.env.LEDGERKIT_INTEROP_KEY ?? ""),
  });
  const alice = Account.generate();
  const bob = Account.generate();
  const me = issuer.accountAddress.toString();
  const named = { issuer, alice, bob };
  results.accounts = {
    ok: true,
    value: Object.fromEntries(
      Object.entries(named).map(([name, account]) => [name, account.accountAddress.toString()]),
    ),
  };
  const options = { timeoutSecs: 30 };
  const wait = async (hash) =>
    committed(await aptos.waitForTransaction({ transactionHash: hash, options }));
  const send = async (signer, transaction) =>
    wait((await aptos.signAndSubmitTransaction({ signer, transaction })).hash);
  const admin = async (name, args) =>
    send(
      issuer,
      await aptos.transaction.build.simple({
        sender: issuer.accountAddress,
        data: { function: `${me}::fa_coin::${name}`, functionArguments: args },
      }),
    );

  for (const [name, account] of Object.entries(named)) {
    const funded = await step(`fund_${name}`, async () =>
      committed(
        await aptos.fundAccount({ accountAddress: account.accountAddress, amount: FUNDING }),
      ),
    );
    if (funded === undefined) return;
  }
  const published = await step("publish", async () =>
    send(
      issuer,
      await aptos.publishPackageTransaction({
        account: issuer.accountAddress,
        metadataBytes,
        moduleBytecode: [moduleBytecode],
      }),
    ),
  );
  if (published === undefined) return;
  const found = await step("get_metadata", () =>
    aptos.view({ payload: { function: `${me}::fa_coin::get_metadata`, functionArguments: [] } }),
  );
  if (found === undefined) return;
  const asset = found[0].inner;

  const minted = await step("mint", () => admin("mint", [alice.accountAddress, 5_000]));
  if (minted === undefined) return;
  // What the example's users do: primary_fungible_store::transfer, built by the SDK.
  const transfer = async (sender, recipient, amount) =>
    aptos.transferFungibleAsset({
      sender,
      fungibleAssetMetadataAddress: AccountAddress.from(asset),
      recipient: recipient.accountAddress,
      amount,
    });
  const sent = await step("alice_to_bob", async () =>
    send(alice, await transfer(alice, bob, 1_200)),
  );
  if (sent === undefined) return;
  const frozen = await step("freeze_bob", () => admin("freeze_account", [bob.accountAddress]));
  if (frozen === undefined) return;
  // The refused send: the SDK's waitForTransaction throws on a committed failure, the
  // transaction it read attached to the error.
  await step("bob_frozen_send", async () => {
    const pending = await aptos.signAndSubmitTransaction({
      signer: bob,
      transaction: await transfer(bob, alice, 200),
    });
    try {
      await aptos.waitForTransaction({ transactionHash: pending.hash, options });
    } catch (error) {
      const read = error.transaction ?? { hash: pending.hash };
      return { thrown: describe(error).message, ...committed(read) };
    }
    return { thrown: null, hash: pending.hash };
  });
  const thawed = await step("unfreeze_bob", () => admin("unfreeze_account", [bob.accountAddress]));
  if (thawed === undefined) return;
  const resent = await step("bob_to_alice", async () => send(bob, await transfer(bob, alice, 200)));
  if (resent === undefined) return;
  const burnt = await step("burn", () => admin("burn", [bob.accountAddress, 300]));
  if (burnt === undefined) return;

  // The reads, the indexer's waited for up to the last transaction.
  const minimumLedgerVersion = BigInt(burnt.version);
  await step("balances", () =>
    aptos.getCurrentFungibleAssetBalances({
      minimumLedgerVersion,
      options: { where: { asset_type: { _eq: asset } } },
    }),
  );
  await step("metadata", () =>
    aptos.getFungibleAssetMetadata({
      minimumLedgerVersion,
      options: { where: { creator_address: { _eq: issuer.accountAddress.toStringLong() } } },
    }),
  );
  await step("metadata_by_asset_type", () =>
    aptos.getFungibleAssetMetadataByAssetType({ assetType: asset, minimumLedgerVersion }),
  );
  await step("activities", () =>
    aptos.getFungibleAssetActivities({
      minimumLedgerVersion,
      options: { where: { asset_type: { _eq: asset } } },
    }),
  );
  await step("coins_data", () =>
    aptos.getAccountCoinsData({ accountAddress: bob.accountAddress, minimumLedgerVersion }),
  );
  for (const [name, account] of Object.entries({ alice, bob })) {
    await step(`coin_amount_${name}`, () =>
      aptos.getAccountCoinAmount({
        accountAddress: account.accountAddress,
        faMetadataAddress: asset,
      }),
    );
    await step(`get_balance_${name}`, () =>
      aptos.getBalance({ accountAddress: account.accountAddress, asset }),
    );
    await step(`view_balance_${name}`, () =>
      aptos.view({
        payload: {
          function: "0x1::primary_fungible_store::balance",
          typeArguments: ["0x1::fungible_asset::Metadata"],
          functionArguments: [account.accountAddress, asset],
        },
      }),
    );
  }
}

run(main);
