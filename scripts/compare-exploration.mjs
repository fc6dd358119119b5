// Compares two builds of the CLI on the exploration's output: `fuzz --format json --seed 42` and
// `check --deep --format json` of every example, the typical fixture and the fuzzer's corpus,
// byte for byte. For a change to exploration that must not change what it finds (sharing the
// exhaustive paths' prefixes): `node scripts/compare-exploration.mjs BASE.cjs NEW.cjs`, run from
// the repository root. Prints each spec that differs; exits 1 when any does.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const [base, next] = process.argv.slice(2);
if (base === undefined || next === undefined) {
  process.stderr.write("usage: node scripts/compare-exploration.mjs BASE.cjs NEW.cjs\n");
  process.exit(2);
}
const specsOf = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".stratum.yaml"))
    .sort()
    .map((f) => join(dir, f));
const specs = [
  "bench/fixtures/typical.stratum.yaml",
  ...specsOf("examples"),
  ...specsOf("test/fuzzer/corpus"),
];
const commands = [
  ["fuzz", "--format", "json", "--seed", "42"],
  ["check", "--deep", "--format", "json"],
];
const run = (bundle, args) => {
  try {
    return execFileSync(process.execPath, [bundle, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  } catch (e) {
    // A spec with findings or errors exits non-zero: its output is still what is compared.
    return `${e.stdout ?? ""}\n-- exit ${e.status}`;
  }
};
let differ = 0;
for (const spec of specs) {
  for (const command of commands) {
    const a = run(base, [...command, spec]);
    const b = run(next, [...command, spec]);
    if (a !== b) {
      differ++;
      process.stdout.write(`DIFFERS ${command.slice(0, 2).join(" ")} ${spec}\n`);
    }
  }
}
process.stdout.write(`${specs.length} specs × ${commands.length} commands, ${differ} differ\n`);
process.exit(differ === 0 ? 0 : 1);
