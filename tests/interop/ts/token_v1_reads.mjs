// Token v1 (0x3::token) through the TypeScript SDK: Alice's collection and token made with
// entry function calls built from the node's ABIs, then the indexer's reads of them: her
// digital assets, the token's data by its id, the collection by creator and name (token
// standard v1), and the token's activities.
//
//   node token_v1_reads.mjs <node-url> <indexer-url> <collection> <token-id>
// (Alice's key, a funded dev account's, in LEDGERKIT_INTEROP_KEY; <token-id> is the token
// data id the test hashed; the SDK release in LEDGERKIT_TS_SDK, see steps.mjs)
//
// Prints one JSON object of step results; test_interop_ts_token_v1.py checks them.

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network } = await import(SDK_PACKAGE);

const DEADLINE_MS = 120_000;
const [url, indexer, collection, token] = process.argv.slice(2);
bound(DEADLINE_MS);

function committed(txn) {
  return { hash: txn.hash, version: txn.version, success: txn.success, vm_status: txn.vm_status };
}

async function main() {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: url, indexer }));
  const alice = Account.fromPrivateKey({
    privateKey: new Ed25519PrivateKey(process.env.LEDGERKIT_INTEROP_KEY ?? ""),
  });
  const creator = alice.accountAddress.toString();
  results.alice = { ok: true, value: creator };
  const call = async (fn, functionArguments) => {
    const transaction = await aptos.transaction.build.simple({
      sender: alice.accountAddress,
      data: { function: fn, functionArguments },
    });
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction });
    return committed(
      await aptos.waitForTransaction({ transactionHash: pending.hash, options: { timeoutSecs: 30 } }),
    );
  };
  const made = await step("create_collection", () =>
    call("0x3::token::create_collection_script", [
      collection,
      "A v1 collection",
      "https://aptos.dev",
      5,
      [false, false, false],
    ]),
  );
  if (made === undefined) return;
  const minted = await step("create_token", () =>
    call("0x3::token::create_token_script", [
      collection,
      "Shield",
      "A shield",
      2,
      0,
      "https://aptos.dev/img/shield.png",
      creator,
      100,
      5,
      [false, false, false, false, false],
      ["level"],
      [[7, 0, 0, 0, 0, 0, 0, 0]],
      ["u64"],
    ]),
  );
  if (minted === undefined) return;
  const minimumLedgerVersion = BigInt(minted.version);
  await step("owned", () =>
    aptos.getOwnedDigitalAssets({ ownerAddress: creator, minimumLedgerVersion }),
  );
  await step("asset", () =>
    aptos.getDigitalAssetData({ digitalAssetAddress: token, minimumLedgerVersion }),
  );
  await step("collection", () =>
    aptos.getCollectionData({
      creatorAddress: creator,
      collectionName: collection,
      minimumLedgerVersion,
      options: { tokenStandard: "v1" },
    }),
  );
  await step("activity", () =>
    aptos.getDigitalAssetActivity({
      digitalAssetAddress: token,
      minimumLedgerVersion,
      options: { orderBy: [{ transaction_version: "asc" }, { event_index: "asc" }] },
    }),
  );
}

run(main);
