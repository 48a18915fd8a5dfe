// The TypeScript SDK's multisig account flow (examples/typescript/multisig_v2.ts) against a
// local network: `new Aptos(new AptosConfig({ network: Network.LOCAL }))`, no URL of ours.
// Three owners make a 2-of-3 multisig account, fund it, and run through it: a transfer
// (stored payload, executed with `transaction.build.simple({ multisigAddress })`), a transfer
// stored by its hash (executed with the payload), adding and removing an owner, and raising
// the threshold; each call is rejected by owner 1 and approved by owner 3, as the example
// does. Owner 1 then stores a call that owners 2 and 3 reject, and resolves it as rejected.
//
//   node multisig.mjs
//
// The SDK release is chosen by LEDGERKIT_TS_SDK (see steps.mjs). Prints one JSON object of
// step results (addresses, hashes, what the SDK answered, never a key).

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const sdk = await import(SDK_PACKAGE);
const {
  Account,
  AccountAddress,
  Aptos,
  AptosConfig,
  MoveString,
  MultiSig,
  Network,
  SimpleTransaction,
  TransactionPayloadMultiSig,
  generateRawTransaction,
  generateTransactionPayload,
} = sdk;
const { createHash } = await import("node:crypto");

const DEADLINE_MS = 120_000;
bound(DEADLINE_MS);

const config = new AptosConfig({ network: Network.LOCAL });
const aptos = new Aptos(config);
const MS = "0x1::multisig_account::";

function committed(txn) {
  return {
    hash: txn.hash,
    version: txn.version,
    success: txn.success,
    vm_status: txn.vm_status,
  };
}

async function submitted(signer, transaction) {
  const senderAuthenticator = aptos.transaction.sign({ signer, transaction });
  const pending = await aptos.transaction.submit.simple({ transaction, senderAuthenticator });
  return committed(
    await aptos.waitForTransaction({ transactionHash: pending.hash, options: { timeoutSecs: 30 } }),
  );
}

async function entry(signer, fn, functionArguments) {
  const transaction = await aptos.transaction.build.simple({
    sender: signer.accountAddress,
    data: { function: fn, functionArguments },
  });
  return submitted(signer, transaction);
}

async function multisigAccount(address) {
  const resource = await aptos.getAccountResource({
    accountAddress: address,
    resourceType: `${MS}MultisigAccount`,
  });
  return { owners: resource.owners, num_signatures_required: resource.num_signatures_required };
}

function payloadBytes(payload) {
  return payload.multiSig.transaction_payload.bcsToBytes();
}

async function main() {
  const owners = [Account.generate(), Account.generate(), Account.generate()];
  const [owner1, owner2, owner3] = owners;
  const recipient = Account.generate();
  const owner4 = Account.generate();
  results.accounts = {
    ok: true,
    value: Object.fromEntries(
      Object.entries({ owner1, owner2, owner3, owner4, recipient }).map(([n, a]) => [
        n,
        a.accountAddress.toString(),
      ]),
    ),
  };
  for (const owner of owners) {
    await aptos.fundAccount({ accountAddress: owner.accountAddress, amount: 1_000_000_000 });
  }
  const [multisigAddress] = await aptos.view({
    payload: {
      function: `${MS}get_next_multisig_account_address`,
      functionArguments: [owner1.accountAddress.toString()],
    },
  });
  results.multisig_address = { ok: true, value: multisigAddress };
  await step("create", () =>
    entry(owner1, `${MS}create_with_owners`, [
      [owner2.accountAddress, owner3.accountAddress],
      2,
      ["Example"],
      [new MoveString("SDK").bcsToBytes()],
    ]),
  );
  await step("created", () => multisigAccount(multisigAddress));
  await step("fund_multisig", async () =>
    committed(await aptos.fundAccount({ accountAddress: multisigAddress, amount: 1_000_000_000 })),
  );

  // 1. A transfer, stored with its payload.
  const transfer = await generateTransactionPayload({
    multisigAddress,
    function: "0x1::aptos_account::transfer",
    functionArguments: [recipient.accountAddress, 1_000_000],
    aptosConfig: config,
  });
  await step("simulate_as_multisig", async () => {
    const transaction = await aptos.transaction.build.simple({
      sender: multisigAddress,
      data: {
        function: "0x1::aptos_account::transfer",
        functionArguments: [recipient.accountAddress, 1_000_000],
      },
      withFeePayer: true,
    });
    const [simulated] = await aptos.transaction.simulate.simple({ transaction });
    return { success: simulated.success, vm_status: simulated.vm_status };
  });
  await step("create_transfer", () =>
    entry(owner2, `${MS}create_transaction`, [multisigAddress, payloadBytes(transfer)]),
  );
  await voteOn(owner1, owner3, multisigAddress, 1, "1");
  await step("can_be_executed_1", async () =>
    aptos.view({
      payload: { function: `${MS}can_be_executed`, functionArguments: [multisigAddress, 1] },
    }),
  );
  await step("execute_transfer", async () => {
    const transaction = await aptos.transaction.build.simple({
      sender: owner2.accountAddress,
      data: {
        multisigAddress,
        function: "0x1::aptos_account::transfer",
        functionArguments: [recipient.accountAddress, 1_000_000],
      },
    });
    return submitted(owner2, transaction);
  });
  await step("recipient_balance_1", () =>
    aptos.getAccountAPTAmount({ accountAddress: recipient.accountAddress }),
  );

  // 2. The same transfer, stored by its hash: executing it carries the payload.
  await step("create_transfer_hash", () =>
    entry(owner2, `${MS}create_transaction_with_hash`, [
      multisigAddress,
      createHash("sha3-256").update(payloadBytes(transfer)).digest(),
    ]),
  );
  await voteOn(owner1, owner3, multisigAddress, 2, "2");
  await step("execute_transfer_hash", async () => {
    const raw = await generateRawTransaction({
      aptosConfig: config,
      sender: owner2.accountAddress,
      payload: transfer,
    });
    return submitted(owner2, new SimpleTransaction(raw));
  });
  await step("recipient_balance_2", () =>
    aptos.getAccountAPTAmount({ accountAddress: recipient.accountAddress }),
  );

  // 3-5. Owner changes and the threshold, through calls stored with their payloads.
  const changes = [
    ["add_owner", "add_owner", [owner4.accountAddress]],
    ["remove_owner", "remove_owner", [owner4.accountAddress]],
    ["threshold", "update_signatures_required", [3]],
  ];
  let sequence = 3;
  for (const [name, fn, functionArguments] of changes) {
    const payload = await generateTransactionPayload({
      multisigAddress,
      function: `${MS}${fn}`,
      functionArguments,
      aptosConfig: config,
    });
    await step(`create_${name}`, () =>
      entry(owner2, `${MS}create_transaction`, [multisigAddress, payloadBytes(payload)]),
    );
    await voteOn(owner1, owner3, multisigAddress, sequence, name);
    await step(`execute_${name}`, async () => {
      const raw = await generateRawTransaction({
        aptosConfig: config,
        sender: owner2.accountAddress,
        payload: new TransactionPayloadMultiSig(
          new MultiSig(AccountAddress.fromString(multisigAddress)),
        ),
      });
      return submitted(owner2, new SimpleTransaction(raw));
    });
    await step(`after_${name}`, () => multisigAccount(multisigAddress));
    sequence += 1;
  }

  // 6. A call the owners reject, resolved as rejected.
  const rejected = await generateTransactionPayload({
    multisigAddress,
    function: `${MS}update_signatures_required`,
    functionArguments: [1],
    aptosConfig: config,
  });
  await step("create_rejected", () =>
    entry(owner1, `${MS}create_transaction`, [multisigAddress, payloadBytes(rejected)]),
  );
  for (const [name, owner] of [
    ["reject_rejected_2", owner2],
    ["reject_rejected_3", owner3],
  ]) {
    await step(name, () => entry(owner, `${MS}reject_transaction`, [multisigAddress, sequence]));
  }
  // two rejections of the three now required; owner 1's own makes the third
  await step("can_be_rejected", async () => ({
    alone: await aptos.view({
      payload: { function: `${MS}can_be_rejected`, functionArguments: [multisigAddress, sequence] },
    }),
    by_owner1: await aptos.view({
      payload: {
        function: `${MS}can_reject`,
        functionArguments: [owner1.accountAddress.toString(), multisigAddress, sequence],
      },
    }),
  }));
  await step("execute_rejected", () =>
    entry(owner1, `${MS}execute_rejected_transaction`, [multisigAddress]),
  );
  await step("views", async () => {
    const call = (fn) =>
      aptos.view({ payload: { function: `${MS}${fn}`, functionArguments: [multisigAddress] } });
    return {
      owners: await call("owners"),
      num_signatures_required: await call("num_signatures_required"),
      last_resolved_sequence_number: await call("last_resolved_sequence_number"),
      next_sequence_number: await call("next_sequence_number"),
    };
  });
}

// The example's rejectAndApprove: owner 1 rejects, owner 3 approves.
async function voteOn(rejecter, approver, multisigAddress, sequence, name) {
  await step(`reject_${name}`, () =>
    entry(rejecter, `${MS}reject_transaction`, [multisigAddress, sequence]),
  );
  await step(`approve_${name}`, () =>
    entry(approver, `${MS}approve_transaction`, [multisigAddress, sequence]),
  );
}

run(main);
