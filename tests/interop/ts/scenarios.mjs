// The official TypeScript SDK run against a node: one scenario group per invocation.
//
//   node scenarios.mjs read   <node-url> <account> <sender-of-an-old-transaction>
//   node scenarios.mjs submit     <node-url> <recipient> <amount>
//   node scenarios.mjs single_key <node-url> <recipient> <amount>
//   node scenarios.mjs fund       <node-url> <faucet-url> <recipient> <amount>
// (the sending or funding dev account's key in LEDGERKIT_INTEROP_KEY, raw hex or AIP-80;
// the SDK release in LEDGERKIT_TS_SDK, see steps.mjs)
//
// Prints one JSON object on stdout: for each step, {"ok": true, "value": ...} or
// {"ok": false, "error": {...}} so that one failing step does not hide the others.
// The pytest side (test_interop_ts_sdk.py) asserts on it. Every wait is bounded.

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const {
  Account,
  Aptos,
  AptosConfig,
  Ed25519PrivateKey,
  Network,
  SigningSchemeInput,
  getAptosFullNode,
} = await import(SDK_PACKAGE);

const DEADLINE_MS = 90_000;
const MAX_PAGES = 50;
const APT = "0x1::aptos_coin::AptosCoin";
// What a fresh single-key account is given to pay its transfer and fee: 10 APT.
const FUNDING = 1_000_000_000n;

const [group, url, ...rest] = process.argv.slice(2);
bound(DEADLINE_MS);

// Follows the SDK's own page cursor (the x-aptos-cursor header) until it says there is no more.
async function allPages(fetchPage) {
  const pages = [];
  let cursor;
  do {
    const page = await fetchPage(cursor);
    pages.push(page.items);
    cursor = page.cursor;
  } while (cursor !== undefined && cursor !== null && pages.length < MAX_PAGES);
  return pages;
}

function summary(txn) {
  return {
    type: txn.type,
    version: txn.version,
    hash: txn.hash,
    success: txn.success,
    vm_status: txn.vm_status,
    sender: txn.sender,
    sequence_number: txn.sequence_number,
    gas_used: txn.gas_used,
    gas_unit_price: txn.gas_unit_price,
    max_gas_amount: txn.max_gas_amount,
    events: (txn.events ?? []).map((event) => event.type),
    signature: txn.signature?.type ?? null,
  };
}

async function read(aptos, config, account, oldSender) {
  await step("ledger_info", () => aptos.getLedgerInfo());
  await step("chain_id", () => aptos.getChainId());
  await step("account", () => aptos.getAccountInfo({ accountAddress: account }));
  await step("account_resource", () =>
    aptos.getAccountResource({ accountAddress: account, resourceType: "0x1::account::Account" }),
  );
  // Key rotation lookups read 0x1::account::OriginatingAddress and its table.
  await step("original_address", async () =>
    (await aptos.lookupOriginalAccountAddress({ authenticationKey: account })).toString(),
  );
  await step("resources_all", async () =>
    (await aptos.getAccountResources({ accountAddress: "0x1" })).map((r) => r.type),
  );
  await step("resources_pages", () =>
    allPages(async (cursor) => {
      const page = await aptos.getAccountResourcesPage({
        accountAddress: "0x1",
        options: { limit: 2, cursor },
      });
      return { items: page.resources.map((r) => r.type), cursor: page.cursor };
    }),
  );
  await step("modules_all", async () =>
    (await aptos.getAccountModules({ accountAddress: "0x1" })).map((m) => m.abi.name),
  );
  await step("modules_pages", () =>
    allPages(async (cursor) => {
      const page = await aptos.getAccountModulesPage({
        accountAddress: "0x1",
        options: { limit: 5, cursor },
      });
      return { items: page.modules.map((m) => m.abi.name), cursor: page.cursor };
    }),
  );
  await step("module", async () => {
    const module = await aptos.getAccountModule({ accountAddress: "0x1", moduleName: "coin" });
    return { name: module.abi.name, functions: module.abi.exposed_functions.map((f) => f.name) };
  });
  await step("transactions_pages", async () => {
    const first = await aptos.getTransactions({ options: { offset: 1, limit: 5 } });
    const second = await aptos.getTransactions({ options: { offset: 6, limit: 5 } });
    return [first.map((t) => t.version), second.map((t) => t.version)];
  });
  await step("account_transactions_pages", async () => {
    const first = await aptos.getAccountTransactions({
      accountAddress: oldSender,
      options: { offset: 0, limit: 1 },
    });
    const second = await aptos.getAccountTransactions({
      accountAddress: oldSender,
      options: { offset: 1, limit: 1 },
    });
    return [first, second].map((page) =>
      page.map((t) => ({ sender: t.sender, sequence_number: t.sequence_number })),
    );
  });
  const first = await step("account_transaction_first", async () =>
    summary(
      (await aptos.getAccountTransactions({ accountAddress: oldSender, options: { limit: 1 } }))[0],
    ),
  );
  if (first !== undefined) {
    await step("transaction_by_version", async () =>
      summary(await aptos.getTransactionByVersion({ ledgerVersion: BigInt(first.version) })),
    );
    await step("transaction_by_hash", async () =>
      summary(await aptos.getTransactionByHash({ transactionHash: first.hash })),
    );
  }
  // The SDK reads events from the indexer only; its own request helper reaches the node's.
  for (const [name, path] of [
    ["events_by_handle", "accounts/0x1/events/0x1::block::BlockResource/new_block_events"],
    ["events_by_creation_number", "accounts/0x1/events/2"],
  ]) {
    await step(name, async () => {
      const pages = [];
      for (const start of [0, 3]) {
        const { data } = await getAptosFullNode({
          aptosConfig: config,
          originMethod: name,
          path,
          params: { start, limit: 3 },
        });
        pages.push(data.map((e) => ({ sequence_number: e.sequence_number, type: e.type })));
      }
      return pages;
    });
  }
  await step("block", async () => {
    const block = await aptos.getBlockByHeight({
      blockHeight: 1,
      options: { withTransactions: true },
    });
    return {
      block_height: block.block_height,
      first_version: block.first_version,
      last_version: block.last_version,
      transactions: (block.transactions ?? []).map((t) => t.version),
    };
  });
  await step("view_bcs", () =>
    aptos.view({
      payload: {
        function: "0x1::coin::balance",
        typeArguments: [APT],
        functionArguments: [account],
      },
    }),
  );
  await step("view_json", () =>
    aptos.viewJson({
      payload: {
        function: "0x1::coin::balance",
        typeArguments: [APT],
        functionArguments: [account],
      },
    }),
  );
  await step("view_chain_id", () =>
    aptos.view({ payload: { function: "0x1::chain_id::get", functionArguments: [] } }),
  );
  await step("balance", () => aptos.getBalance({ accountAddress: account, asset: APT }));
  await step("gas_estimate", () => aptos.getGasPriceEstimation());
}

async function balanceOf(aptos, address) {
  const [amount] = await aptos.view({
    payload: { function: "0x1::coin::balance", typeArguments: [APT], functionArguments: [address] },
  });
  return amount;
}

// Build, simulate (twice: plain and with the estimate flags), sign, submit and wait for a
// transfer; every step is named with ``prefix``.
async function transfer(aptos, signer, recipient, amount, prefix) {
  const name = (label) => `${prefix}${label}`;
  await step(name("before"), async () => ({
    sender: await balanceOf(aptos, signer.accountAddress),
    recipient: await balanceOf(aptos, recipient),
  }));
  const transaction = await step(name("build"), () =>
    aptos.transaction.build.simple({
      sender: signer.accountAddress,
      data: { function: "0x1::aptos_account::transfer", functionArguments: [recipient, amount] },
    }),
  );
  if (transaction === undefined) return;
  results[name("build")].value = {
    sequence_number: transaction.rawTransaction.sequence_number,
    chain_id: transaction.rawTransaction.chain_id.chainId,
    gas_unit_price: transaction.rawTransaction.gas_unit_price,
    max_gas_amount: transaction.rawTransaction.max_gas_amount,
  };
  await step(name("simulate"), async () => {
    const [simulated] = await aptos.transaction.simulate.simple({
      signerPublicKey: signer.publicKey,
      transaction,
    });
    return summary(simulated);
  });
  await step(name("simulate_estimated"), async () => {
    const [simulated] = await aptos.transaction.simulate.simple({
      signerPublicKey: signer.publicKey,
      transaction,
      options: { estimateGasUnitPrice: true, estimateMaxGasAmount: true },
    });
    return summary(simulated);
  });
  const pending = await step(name("submit"), async () => {
    const answer = await aptos.signAndSubmitTransaction({ signer, transaction });
    return { hash: answer.hash, type: answer.type ?? null };
  });
  if (pending === undefined) return;
  await step(name("wait"), async () =>
    summary(
      await aptos.waitForTransaction({
        transactionHash: pending.hash,
        options: { timeoutSecs: 30 },
      }),
    ),
  );
  await step(name("after"), async () => ({
    sender: await balanceOf(aptos, signer.accountAddress),
    recipient: await balanceOf(aptos, recipient),
  }));
  await step(name("account_after"), () =>
    aptos.getAccountInfo({ accountAddress: signer.accountAddress }),
  );
}

// The dev account of the key; only its address goes into the results, never the key.
async function signerOf(key) {
  let signer;
  await step("signer", async () => {
    signer = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(key) });
    return { address: signer.accountAddress.toString() };
  });
  return signer;
}

async function submit(aptos, recipient, key, amount) {
  const signer = await signerOf(key);
  if (signer !== undefined) await transfer(aptos, signer, recipient, amount, "");
}

// Fresh accounts of the other single-key schemes, funded by the dev account, each sending a
// transfer: the SDK signs with SingleKey authenticators (Ed25519 and secp256k1 ECDSA).
async function singleKey(aptos, recipient, key, amount) {
  const funder = await signerOf(key);
  if (funder === undefined) return;
  const accounts = [
    ["ed25519_", Account.generate({ scheme: SigningSchemeInput.Ed25519, legacy: false })],
    ["secp256k1_", Account.generate({ scheme: SigningSchemeInput.Secp256k1Ecdsa })],
  ];
  for (const [prefix, account] of accounts) {
    const funded = await step(`${prefix}fund`, async () => {
      const transaction = await aptos.transaction.build.simple({
        sender: funder.accountAddress,
        data: {
          function: "0x1::aptos_account::transfer",
          functionArguments: [account.accountAddress, FUNDING],
        },
      });
      const pending = await aptos.signAndSubmitTransaction({ signer: funder, transaction });
      const done = await aptos.waitForTransaction({
        transactionHash: pending.hash,
        options: { timeoutSecs: 30 },
      });
      return { address: account.accountAddress.toString(), success: done.success };
    });
    if (funded !== undefined) await transfer(aptos, account, recipient, amount, prefix);
  }
}

// The faucet funds ``recipient`` (an account it creates) through ``fundAccount``, which
// waits for the transaction; the indexer it would wait for too is not asked for.
async function fund(aptos, recipient, amount) {
  await step("fund", async () => {
    const committed = await aptos.fundAccount({
      accountAddress: recipient,
      amount,
      options: { waitForIndexer: false, timeoutSecs: 30 },
    });
    return { hash: committed.hash, success: committed.success };
  });
  await step("balance", () => balanceOf(aptos, recipient));
}

async function main() {
  // A custom network: the SDK then asks the node for its chain id instead of assuming one.
  const faucet = group === "fund" ? rest[0] : undefined;
  const config = new AptosConfig({ network: Network.CUSTOM, fullnode: url, faucet });
  const aptos = new Aptos(config);
  if (group === "read") {
    const [account, oldSender] = rest;
    await read(aptos, config, account, oldSender);
  } else if (group === "submit") {
    const [recipient, amount] = rest;
    await submit(aptos, recipient, process.env.LEDGERKIT_INTEROP_KEY ?? "", BigInt(amount));
  } else if (group === "single_key") {
    const [recipient, amount] = rest;
    await singleKey(aptos, recipient, process.env.LEDGERKIT_INTEROP_KEY ?? "", BigInt(amount));
  } else if (group === "fund") {
    const [, recipient, amount] = rest;
    await fund(aptos, recipient, Number(amount));
  } else {
    results.usage = { ok: false, error: { message: `unknown scenario group ${group}` } };
  }
}

run(main);
