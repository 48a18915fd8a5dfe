// The TypeScript SDK's digital asset flow (examples/typescript/simple_digital_asset.ts)
// against a node: a collection, a token minted into it, the token sent to Bob, and the
// indexer's reads of each (getCollectionData, getOwnedDigitalAssets, getDigitalAssetData).
//
//   node digital_assets.mjs <node-url> <indexer-url>
// (Alice's key, a funded dev account's, in LEDGERKIT_INTEROP_KEY; Bob is generated here;
// the SDK release in LEDGERKIT_TS_SDK, see steps.mjs)
//
// Prints one JSON object of step results; test_interop_ts_digital_assets.py checks them.

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } = await import(SDK_PACKAGE);

const DEADLINE_MS = 120_000;
const [url, indexer] = process.argv.slice(2);
bound(DEADLINE_MS);

const COLLECTION = "Example Collection";

function committed(txn) {
  return { hash: txn.hash, version: txn.version, success: txn.success, vm_status: txn.vm_status };
}

async function main() {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: url, indexer }));
  const alice = Account.fromPrivateKey({
    privateKey: new Ed25519PrivateKey(process.env.LEDGERKIT_INTEROP_KEY ?? ""),
  });
  const bob = Account.generate();
  results.accounts = {
    ok: true,
    value: { alice: alice.accountAddress.toString(), bob: bob.accountAddress.toString() },
  };
  const send = async (transaction) => {
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction });
    return committed(
      await aptos.waitForTransaction({ transactionHash: pending.hash, options: { timeoutSecs: 30 } }),
    );
  };
  const created = await step("create_collection", async () =>
    send(
      await aptos.createCollectionTransaction({
        creator: alice,
        description: "Example description.",
        name: COLLECTION,
        uri: "aptos.dev",
      }),
    ),
  );
  if (created === undefined) return;
  await step("collection", () =>
    aptos.getCollectionData({
      creatorAddress: alice.accountAddress,
      collectionName: COLLECTION,
      minimumLedgerVersion: BigInt(created.version),
    }),
  );
  const minted = await step("mint", async () =>
    send(
      await aptos.mintDigitalAssetTransaction({
        creator: alice,
        collection: COLLECTION,
        description: "Example asset description.",
        name: "Example Asset",
        uri: "aptos.dev/asset",
        propertyKeys: ["level"],
        propertyTypes: ["U64"],
        propertyValues: [7],
      }),
    ),
  );
  if (minted === undefined) return;
  const owned = await step("owned_by_alice", () =>
    aptos.getOwnedDigitalAssets({
      ownerAddress: alice.accountAddress,
      minimumLedgerVersion: BigInt(minted.version),
    }),
  );
  if (!owned?.length) return;
  const token = owned[0].token_data_id;
  await step("asset", () =>
    aptos.getDigitalAssetData({
      digitalAssetAddress: token,
      minimumLedgerVersion: BigInt(minted.version),
    }),
  );
  const moved = await step("transfer", async () =>
    send(
      await aptos.transferDigitalAssetTransaction({
        sender: alice,
        digitalAssetAddress: token,
        recipient: bob.accountAddress,
      }),
    ),
  );
  if (moved === undefined) return;
  await step("owned_after", async () => ({
    alice: await aptos.getOwnedDigitalAssets({
      ownerAddress: alice.accountAddress,
      minimumLedgerVersion: BigInt(moved.version),
    }),
    bob: await aptos.getOwnedDigitalAssets({
      ownerAddress: bob.accountAddress,
      minimumLedgerVersion: BigInt(moved.version),
    }),
  }));
}

run(main);
