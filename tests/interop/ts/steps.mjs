// What the interop scripts share: the SDK release to run, named steps whose outcome is kept
// (one failing step does not hide the others), and one JSON answer on stdout.
//
// The release is chosen by LEDGERKIT_TS_SDK, the name package.json installs it under
// ("ts-sdk-6" for 6.3, "ts-sdk-7" for 7.3); 6.3 when it is not set.

export const SDK_PACKAGE = process.env.LEDGERKIT_TS_SDK || "ts-sdk-6";

export const results = {};

// stdout carries the JSON answer alone: the SDK's own notes go to stderr.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

export function print() {
  const text = JSON.stringify(results, (_key, value) =>
    typeof value === "bigint" ? value.toString() : value,
  );
  process.stdout.write(`${text}\n`);
}

// The whole run is bounded: past the deadline, print what was done and stop.
export function bound(deadlineMs) {
  setTimeout(() => {
    results.deadline = { ok: false, error: { message: `no answer within ${deadlineMs} ms` } };
    print();
    process.exit(3);
  }, deadlineMs).unref();
}

export function describe(error) {
  return {
    name: error?.name,
    message: String(error?.message ?? error).slice(0, 2000),
    status: error?.status,
    url: error?.url,
    data: error?.data,
  };
}

export async function step(name, run) {
  try {
    results[name] = { ok: true, value: await run() };
  } catch (error) {
    results[name] = { ok: false, error: describe(error) };
  }
  return results[name].value;
}

// Runs ``main`` and prints the answer: exit 0 when it returned, 2 when it threw.
export function run(main) {
  main().then(
    () => {
      print();
      process.exit(0);
    },
    (error) => {
      results.crash = { ok: false, error: describe(error) };
      print();
      process.exit(2);
    },
  );
}
