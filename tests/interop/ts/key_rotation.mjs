// Key rotation through the TypeScript SDK, as its rotate_key example writes it:
//
//   node key_rotation.mjs <node-url>
//
// (the funding dev account's key in LEDGERKIT_INTEROP_KEY; the SDK release in
// LEDGERKIT_TS_SDK, see steps.mjs). Alice is generated and funded by the dev account; she
// rotates her key to Bob's private key with `rotateAuthKey` (both proofs), signs, submits
// and waits; `lookupOriginalAccountAddress` finds her address from the new key; she then
// transfers with the new key, then rotates on to a 1-of-2 multi-Ed25519 account
// (`rotateAuthKey` with `toAccount`). Erin rotates to Frank's public key without a proof
// (`rotateAuthKeyUnverified`). Prints one JSON object of step results (addresses, hashes,
// what the SDK answered, never a key); test_interop_key_rotation.py checks them against
// the node's own REST answers.

import { SDK_PACKAGE, bound, results, run, step } from "./steps.mjs";

const {
  Account,
  Aptos,
  AptosConfig,
  Ed25519PrivateKey,
  MultiEd25519Account,
  MultiEd25519PublicKey,
  Network,
} = await import(SDK_PACKAGE);

const DEADLINE_MS = 90_000;
const FUNDING = 1_000_000_000;
const [url] = process.argv.slice(2);
bound(DEADLINE_MS);

function committed(txn) {
  return {
    hash: txn.hash,
    version: txn.version,
    success: txn.success,
    vm_status: txn.vm_status,
    events: (txn.events ?? []).map((event) => event.type),
  };
}

async function submitAndWait(aptos, signer, transaction) {
  const pending = await aptos.signAndSubmitTransaction({ signer, transaction });
  return committed(
    await aptos.waitForTransaction({
      transactionHash: pending.hash,
      options: { timeoutSecs: 30 },
    }),
  );
}

async function main() {
  const aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: url }));
  const funder = Account.fromPrivateKey({
    privateKey: new Ed25519PrivateKey(process.env.LEDGERKIT_INTEROP_KEY ?? ""),
  });
  const alice = Account.generate();
  const bob = Account.generate();
  results.accounts = {
    ok: true,
    value: {
      alice: alice.accountAddress.toString(),
      bob: bob.accountAddress.toString(),
      bob_public_key: bob.publicKey.toString(),
    },
  };
  await step("fund", async () =>
    submitAndWait(
      aptos,
      funder,
      await aptos.transferCoinTransaction({
        sender: funder.accountAddress,
        recipient: alice.accountAddress,
        amount: FUNDING,
      }),
    ),
  );
  await step("rotate", async () =>
    submitAndWait(
      aptos,
      alice,
      await aptos.rotateAuthKey({ fromAccount: alice, toNewPrivateKey: bob.privateKey }),
    ),
  );
  await step("auth_key", async () =>
    (await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).authentication_key,
  );
  await step("lookup_new_key", async () =>
    (
      await aptos.lookupOriginalAccountAddress({ authenticationKey: bob.accountAddress })
    ).toString(),
  );
  // Alice's address under Bob's key: what a wallet does after a rotation.
  const rotated = Account.fromPrivateKey({
    privateKey: bob.privateKey,
    address: alice.accountAddress,
    legacy: true,
  });
  await step("transfer_with_new_key", async () =>
    submitAndWait(
      aptos,
      rotated,
      await aptos.transferCoinTransaction({
        sender: alice.accountAddress,
        recipient: funder.accountAddress,
        amount: 1,
      }),
    ),
  );
  await step("lookup_unrotated_key", async () =>
    (
      await aptos.lookupOriginalAccountAddress({ authenticationKey: funder.accountAddress })
    ).toString(),
  );
  // On to a 1-of-2 multi-Ed25519 account of Carol's and Dave's keys, Carol signing.
  const carol = Account.generate();
  const dave = Account.generate();
  const multi = new MultiEd25519Account({
    publicKey: new MultiEd25519PublicKey({
      publicKeys: [carol.publicKey, dave.publicKey],
      threshold: 1,
    }),
    signers: [carol.privateKey],
  });
  results.multi = {
    ok: true,
    value: {
      carol_public_key: carol.publicKey.toString(),
      dave_public_key: dave.publicKey.toString(),
    },
  };
  await step("rotate_to_multi", async () =>
    submitAndWait(
      aptos,
      rotated,
      await aptos.rotateAuthKey({ fromAccount: rotated, toAccount: multi }),
    ),
  );
  await step("multi_auth_key", async () =>
    (await aptos.getAccountInfo({ accountAddress: alice.accountAddress })).authentication_key,
  );
  // Without a proof: Erin's address, Frank's public key.
  const erin = Account.generate();
  const frank = Account.generate();
  results.unverified = {
    ok: true,
    value: { erin: erin.accountAddress.toString(), frank: frank.accountAddress.toString() },
  };
  await step("fund_erin", async () =>
    submitAndWait(
      aptos,
      funder,
      await aptos.transferCoinTransaction({
        sender: funder.accountAddress,
        recipient: erin.accountAddress,
        amount: FUNDING,
      }),
    ),
  );
  await step("rotate_unverified", async () =>
    submitAndWait(
      aptos,
      erin,
      await aptos.rotateAuthKeyUnverified({ fromAccount: erin, toNewPublicKey: frank.publicKey }),
    ),
  );
}

run(main);
