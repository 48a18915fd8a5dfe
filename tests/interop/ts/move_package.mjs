// A Move package published and used through the SDK, as a dapp tutorial does after
// `aptos move compile --save-metadata`: publishPackageTransaction with the package metadata
// and the module's bytecode, the module read back (getAccountModule), an entry function
// built from its ABI (set_message, twice), the resource (getAccountResource), a view
// (aptos.view), and a script payload signed by two accounts (build.multiAgent).
//
//   node move_package.mjs <node-url> <metadata-hex> <module-hex> <script-hex>
// (Alice's key, a funded dev account's, in LEDGERKIT_INTEROP_KEY; the module is written for
// her address; Bob is generated here; the SDK release in LEDGERKIT_TS_SDK, see steps.mjs)
//
// Prints one JSON object of step results; test_interop_ts_move_package.py checks them.

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const { Account, Aptos, AptosConfig, Ed25519PrivateKey, Network, U64 } = await import(
  SDK_PACKAGE
);

const DEADLINE_MS = 120_000;
const APTOS_COIN = "0x1::aptos_coin::AptosCoin";
const [url, metadata, module, script] = process.argv.slice(2);
bound(DEADLINE_MS);

function committed(txn) {
  return { hash: txn.hash, version: txn.version, success: txn.success, vm_status: txn.vm_status };
}

async function main() {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: url }));
  const alice = Account.fromPrivateKey({
    privateKey: new Ed25519PrivateKey(process.env.LEDGERKIT_INTEROP_KEY ?? ""),
  });
  const bob = Account.generate();
  const me = alice.accountAddress.toString();
  results.accounts = { ok: true, value: { alice: me, bob: bob.accountAddress.toString() } };
  const wait = async (hash) =>
    committed(await aptos.waitForTransaction({ transactionHash: hash, options: { timeoutSecs: 30 } }));
  const send = async (transaction) =>
    wait((await aptos.signAndSubmitTransaction({ signer: alice, transaction })).hash);

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
  await step("module", () =>
    aptos.getAccountModule({ accountAddress: alice.accountAddress, moduleName: "message_board" }),
  );

  // The entry function, its argument encoded by the SDK from the ABI it fetches.
  const setMessage = async (message) =>
    send(
      await aptos.transaction.build.simple({
        sender: alice.accountAddress,
        data: { function: `${me}::message_board::set_message`, functionArguments: [message] },
      }),
    );
  const first = await step("set_first", () => setMessage("hello, world"));
  if (first !== undefined) {
    await step("resource_first", () =>
      aptos.getAccountResource({
        accountAddress: alice.accountAddress,
        resourceType: `${me}::message_board::MessageHolder`,
      }),
    );
    const second = await step("set_second", () => setMessage("hello again"));
    if (second !== undefined) {
      await step("resource_second", () =>
        aptos.getAccountResource({
          accountAddress: alice.accountAddress,
          resourceType: `${me}::message_board::MessageHolder`,
        }),
      );
    }
    await step("view", () =>
      aptos.view({
        payload: { function: `${me}::message_board::get_message`, functionArguments: [me] },
      }),
    );
  }

  // A script: Alice sends Bob 2,500 octas, Bob signing too (his address comes from his
  // signer). Bob is given 1,000 octas first, so his account exists.
  const opened = await step("fund_bob", async () =>
    send(
      await aptos.transferCoinTransaction({
        sender: alice.accountAddress,
        recipient: bob.accountAddress,
        amount: 1_000,
      }),
    ),
  );
  if (opened === undefined) return;
  await step("script", async () => {
    const transaction = await aptos.transaction.build.multiAgent({
      sender: alice.accountAddress,
      secondarySignerAddresses: [bob.accountAddress],
      data: { bytecode: script, typeArguments: [APTOS_COIN], functionArguments: [new U64(2_500)] },
    });
    const senderAuthenticator = aptos.transaction.sign({ signer: alice, transaction });
    const bobAuthenticator = aptos.transaction.sign({ signer: bob, transaction });
    const pending = await aptos.transaction.submit.multiAgent({
      transaction,
      senderAuthenticator,
      additionalSignersAuthenticators: [bobAuthenticator],
    });
    return wait(pending.hash);
  });
  await step("bob_balance", () => aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress }));
}

run(main);
