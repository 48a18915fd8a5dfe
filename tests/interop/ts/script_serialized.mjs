// A script whose argument is a String, sent through the SDK twice: as a MoveString (which
// the SDK writes as a U8Vector script argument, TransactionArgument variant 4, the UTF-8
// bytes) and as a Serialized one (variant 9) holding the String's BCS. The message board
// is published first (publishPackageTransaction); the script calls its set_message.
//
//   node script_serialized.mjs <node-url> <metadata-hex> <module-hex> <script-hex> <first> <second>
// (the publisher's key, a funded dev account's, in LEDGERKIT_INTEROP_KEY; the SDK release
// in LEDGERKIT_TS_SDK, see steps.mjs)
//
// Prints one JSON object of step results; test_interop_ts_script_serialized.py checks them.

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const { Account, Aptos, AptosConfig, Ed25519PrivateKey, MoveString, Network, Serialized } =
  await import(SDK_PACKAGE);

const DEADLINE_MS = 120_000;
const [url, metadata, module, script, first, second] = process.argv.slice(2);
bound(DEADLINE_MS);

async function main() {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: url }));
  const alice = Account.fromPrivateKey({
    privateKey: new Ed25519PrivateKey(process.env.LEDGERKIT_INTEROP_KEY ?? ""),
  });
  const send = async (transaction) => {
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction });
    const txn = await aptos.waitForTransaction({
      transactionHash: pending.hash,
      options: { timeoutSecs: 30 },
    });
    return { hash: txn.hash, success: txn.success, vm_status: txn.vm_status };
  };
  const published = await step("publish", async () =>
    send(
      await aptos.publishPackageTransaction({
        account: alice.accountAddress,
        metadataBytes: metadata,
        moduleBytecode: [module],
      }),
    ),
  );
  if (published === undefined) return;
  const runScript = async (argument) =>
    send(
      await aptos.transaction.build.simple({
        sender: alice.accountAddress,
        data: { bytecode: script, functionArguments: [argument] },
      }),
    );
  await step("as_string", () => runScript(new MoveString(first)));
  await step("as_serialized", () => runScript(new Serialized(new MoveString(second).bcsToBytes())));
}

run(main);
