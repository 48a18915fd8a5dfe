// The TypeScript SDK's tutorials, as its examples write them, against a local network:
// `new Aptos(new AptosConfig({ network: Network.LOCAL }))`, no URL of ours. One flow per
// invocation, with accounts of its own (generated here, funded by the faucet):
//
//   node tutorials.mjs fund | transfer | batch | sponsored | multi_agent | orderless | indexer
//
// The SDK release is chosen by LEDGERKIT_TS_SDK (see steps.mjs). Prints one JSON object of
// step results (addresses, hashes and what the SDK answered, never a key); the pytest side
// (test_interop_ts_tutorials.py) checks them against the node's own REST answers.

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const { Account, Aptos, AptosConfig, Network, TransactionWorkerEventsEnum } = await import(
  SDK_PACKAGE
);

const DEADLINE_MS = 120_000;
const APTOS_COIN = "0x1::aptos_coin::AptosCoin";
const [flow] = process.argv.slice(2);
bound(DEADLINE_MS);

const aptos = new Aptos(new AptosConfig({ network: Network.LOCAL }));

function committed(txn) {
  return { hash: txn.hash, version: txn.version, success: txn.success, vm_status: txn.vm_status };
}

// fundAccount as the tutorials call it: it waits for the transaction and for the indexer.
async function funded(name, account, amount) {
  return step(`fund_${name}`, async () =>
    committed(await aptos.fundAccount({ accountAddress: account.accountAddress, amount })),
  );
}

async function wait(hash) {
  return aptos.waitForTransaction({ transactionHash: hash, options: { timeoutSecs: 30 } });
}

function addresses(accounts) {
  return Object.fromEntries(
    Object.entries(accounts).map(([name, account]) => [name, account.accountAddress.toString()]),
  );
}

async function fund() {
  const alice = Account.generate();
  results.accounts = { ok: true, value: addresses({ alice }) };
  await funded("alice", alice, 100_000_000);
  await step("apt_amount", () =>
    aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress }),
  );
}

// examples/typescript/transfer_coin.ts: transferCoinTransaction, sign, submit, wait.
async function transfer() {
  const alice = Account.generate();
  const bob = Account.generate();
  results.accounts = { ok: true, value: addresses({ alice, bob }) };
  await funded("alice", alice, 1_000_000_000);
  const done = await step("transfer", async () => {
    const transaction = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 1_000_000,
    });
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction });
    return committed(await wait(pending.hash));
  });
  if (done === undefined) return;
  await step("apt_amounts", async () => ({
    alice: await aptos.getAccountAPTAmount({ accountAddress: alice.accountAddress }),
    bob: await aptos.getAccountAPTAmount({ accountAddress: bob.accountAddress }),
  }));
}

// examples/typescript/batch_funds.ts: the transaction worker sends every payload, numbering
// them itself, and reports each one executed.
async function batch() {
  const sender = Account.generate();
  const recipients = [Account.generate(), Account.generate()];
  results.accounts = {
    ok: true,
    value: addresses({ sender, first: recipients[0], second: recipients[1] }),
  };
  await funded("sender", sender, 10_000_000_000);
  const payloads = [];
  for (let round = 0; round < 5; round += 1) {
    for (const recipient of recipients) {
      payloads.push({
        function: "0x1::aptos_account::transfer",
        functionArguments: [recipient.accountAddress, 1],
      });
    }
  }
  await step("batch", async () => {
    const executed = [];
    const failed = [];
    const finished = new Promise((resolve) => {
      const settle = () => {
        if (executed.length + failed.length === payloads.length) resolve();
      };
      aptos.transaction.batch.on(TransactionWorkerEventsEnum.TransactionExecuted, (data) => {
        executed.push(data.transactionHash);
        settle();
      });
      for (const event of [
        TransactionWorkerEventsEnum.TransactionSendFailed,
        TransactionWorkerEventsEnum.TransactionExecutionFailed,
      ]) {
        aptos.transaction.batch.on(event, (data) => {
          failed.push(data.message ?? String(data));
          settle();
        });
      }
    });
    aptos.transaction.batch.forSingleAccount({ sender, data: payloads });
    await finished;
    aptos.transaction.batch.removeAllListeners();
    return { executed, failed };
  });
  await step("sender_info", () => aptos.getAccountInfo({ accountAddress: sender.accountAddress }));
}

// examples/typescript/simple_sponsored_transaction.ts: Alice sends, the sponsor pays the gas.
async function sponsored() {
  const alice = Account.generate();
  const bob = Account.generate();
  const sponsor = Account.generate();
  results.accounts = { ok: true, value: addresses({ alice, bob, sponsor }) };
  await funded("alice", alice, 1_000_000_000);
  await funded("sponsor", sponsor, 1_000_000_000);
  const coins = async (account, minimumLedgerVersion) =>
    (
      await aptos.getAccountCoinsData({
        accountAddress: account.accountAddress,
        minimumLedgerVersion,
      })
    ).map((coin) => ({ asset_type: coin.asset_type, amount: coin.amount }));
  await step("coins_before", async () => ({
    alice: await coins(alice),
    sponsor: await coins(sponsor),
  }));
  const done = await step("sponsored", async () => {
    const transaction = await aptos.transaction.build.simple({
      sender: alice.accountAddress,
      withFeePayer: true,
      data: {
        function: "0x1::aptos_account::transfer",
        functionArguments: [bob.accountAddress, 10],
      },
    });
    const feePayerAuthenticator = aptos.transaction.signAsFeePayer({
      signer: sponsor,
      transaction,
    });
    const pending = await aptos.signAndSubmitTransaction({
      signer: alice,
      feePayerAuthenticator,
      transaction,
    });
    return committed(await wait(pending.hash));
  });
  if (done === undefined) return;
  await step("coins_after", async () => ({
    alice: await coins(alice, BigInt(done.version)),
    bob: await coins(bob, BigInt(done.version)),
    sponsor: await coins(sponsor, BigInt(done.version)),
  }));
}

// A multi-agent transaction (examples/typescript/multi_agent_transfer.ts builds, signs and
// submits it so), calling an entry function of the framework: 0x1::aptos_account's
// create_account takes no signer, so it runs whoever signs, and both signatures are checked.
async function multiAgent() {
  const alice = Account.generate();
  const bob = Account.generate();
  const carol = Account.generate();
  results.accounts = { ok: true, value: addresses({ alice, bob, carol }) };
  await funded("alice", alice, 1_000_000_000);
  await funded("bob", bob, 1_000_000_000);
  const done = await step("multi_agent", async () => {
    const transaction = await aptos.transaction.build.multiAgent({
      sender: alice.accountAddress,
      secondarySignerAddresses: [bob.accountAddress],
      data: {
        function: "0x1::aptos_account::create_account",
        functionArguments: [carol.accountAddress],
      },
    });
    const senderAuthenticator = aptos.transaction.sign({ signer: alice, transaction });
    const bobAuthenticator = aptos.transaction.sign({ signer: bob, transaction });
    const pending = await aptos.transaction.submit.multiAgent({
      transaction,
      senderAuthenticator,
      additionalSignersAuthenticators: [bobAuthenticator],
    });
    return committed(await wait(pending.hash));
  });
  if (done === undefined) return;
  await step("carol_info", () => aptos.getAccountInfo({ accountAddress: carol.accountAddress }));
}

// examples/typescript/simple_orderless_transfer.ts: a replay protection nonce instead of
// the sequence number.
async function orderless() {
  const alice = Account.generate();
  const bob = Account.generate();
  results.accounts = { ok: true, value: addresses({ alice, bob }) };
  await funded("alice", alice, 1_000_000_000);
  await funded("bob", bob, 100);
  const balance = async (account) => {
    const [amount] = await aptos.viewJson({
      payload: {
        function: "0x1::coin::balance",
        typeArguments: [APTOS_COIN],
        functionArguments: [account.accountAddress.toString()],
      },
    });
    return amount;
  };
  const done = await step("orderless", async () => {
    const transaction = await aptos.transaction.build.simple({
      sender: alice.accountAddress,
      data: {
        function: "0x1::coin::transfer",
        typeArguments: [APTOS_COIN],
        functionArguments: [bob.accountAddress, 100],
      },
      options: { replayProtectionNonce: 12345 },
    });
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction });
    return committed(await wait(pending.hash));
  });
  if (done === undefined) return;
  await step("balances", async () => ({ alice: await balance(alice), bob: await balance(bob) }));
  await step("alice_info", () => aptos.getAccountInfo({ accountAddress: alice.accountAddress }));
}

// The indexer's reads the tutorials use, after a funding and a transfer they must show.
async function indexer() {
  const alice = Account.generate();
  const bob = Account.generate();
  results.accounts = { ok: true, value: addresses({ alice, bob }) };
  await funded("alice", alice, 1_000_000_000);
  const done = await step("transfer", async () => {
    const transaction = await aptos.transferCoinTransaction({
      sender: alice.accountAddress,
      recipient: bob.accountAddress,
      amount: 1_000,
    });
    const pending = await aptos.signAndSubmitTransaction({ signer: alice, transaction });
    return committed(await wait(pending.hash));
  });
  if (done === undefined) return;
  const minimumLedgerVersion = BigInt(done.version);
  const accountAddress = alice.accountAddress;
  await step("coins", () => aptos.getAccountCoinsData({ accountAddress, minimumLedgerVersion }));
  await step("transactions_count", () =>
    aptos.getAccountTransactionsCount({ accountAddress, minimumLedgerVersion }),
  );
  await step("activities", () =>
    aptos.getFungibleAssetActivities({
      minimumLedgerVersion,
      options: {
        where: { owner_address: { _eq: accountAddress.toString() } },
        orderBy: [{ transaction_version: "asc" }],
      },
    }),
  );
  await step("owned_objects", () =>
    aptos.getAccountOwnedObjects({ accountAddress, minimumLedgerVersion }),
  );
}

const FLOWS = {
  fund,
  transfer,
  batch,
  sponsored,
  multi_agent: multiAgent,
  orderless,
  indexer,
};

run(async () => {
  const chosen = FLOWS[flow];
  if (chosen === undefined) {
    results.usage = { ok: false, error: { message: `unknown flow ${flow}` } };
    return;
  }
  results.sdk = { ok: true, value: { package: SDK_PACKAGE, network: aptos.config.network } };
  await chosen();
});
