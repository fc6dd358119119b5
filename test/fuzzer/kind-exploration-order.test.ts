// The fuzzer's exploration of every step kind, call by call: for fixed seeds, random mode makes the
// same calls with the same arguments in the same order and gets the same answers, and exhaustive
// mode enumerates the same paths in the same order. The fingerprints below were recorded from the
// fuzzer before its per-kind code moved into descriptors (fuzzer/run/kinds/); a change to what the
// fuzzer's agent answers to a kind, which choices it offers or in which order, changes them.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/index";
import { virtualFiles } from "../../fuzzer/engine";
import { exploreExhaustive } from "../../fuzzer/explore/exhaustive";
import { exploreRandom } from "../../fuzzer/explore/random";
import { fuzzTransport, type Transport } from "../../fuzzer/index";
import type { RunSetup } from "../../fuzzer/run/driver";
import { Solver } from "../../fuzzer/solver";
import { fuzzTarget } from "../../fuzzer/target";
import { Shapes } from "../../fuzzer/values/shapes";

const REPO = join(__dirname, "../..");
const read = (path: string): string => readFileSync(join(REPO, path), "utf8");

/** A decompose step and a certified parallel_dispatch step that reads its task list. */
const CERTIFIED = `version: "0.3"
contracts:
  Task:
    id: {type: string}
    description: {type: string}
  Plan:
    tasks: {type: array, items: {type: Task}}
flows:
  main:
    input: {}
    steps:
      - id: plan
        type: decompose
        agent: claude
        intent: "Break the goal into tasks"
        output_contract: Plan
        ensure: ["no_file_conflicts(result.tasks)"]
      - id: run
        type: parallel_dispatch
        source: "$.steps.plan.output.tasks"
        intent_template: "Implement {task.description}"
        require: 2
        task_reasoning_template:
          sections:
            - {id: p, label: "Premises", description: "What you read"}
            - {id: c, label: "Conclusion", description: "What follows"}
`;

/** Each spec and the step kinds it exercises. */
const SPECS: readonly { name: string; kinds: string; text: string }[] = [
  {
    name: "race",
    kinds: "race, function",
    text: read("test/fuzzer/corpus/ensure-raises-5.stratum.yaml"),
  },
  {
    name: "quorum",
    kinds: "quorum, function",
    text: read("test/fuzzer/corpus/ensure-raises-6.stratum.yaml"),
  },
  {
    name: "debate",
    kinds: "debate, function",
    text: read("test/fuzzer/corpus/ensure-raises-7.stratum.yaml"),
  },
  {
    name: "decompose-parallel",
    kinds: "decompose, parallel_dispatch",
    text: read("test/fuzzer/corpus/ensure-raises-4.stratum.yaml"),
  },
  { name: "certified", kinds: "decompose, parallel_dispatch", text: CERTIFIED },
  {
    name: "gate",
    kinds: "function, gate",
    text: read("examples/code-review-gate.stratum.yaml"),
  },
  {
    name: "sub-flows",
    kinds: "function, flow",
    text: read("examples/sub-flows.stratum.yaml"),
  },
];

const SEEDS = [1, 42, 7777] as const;
const RUNS = 20;
const MAX_PATHS = 40;

/** A transport that hashes every call and answer it carries, in order. */
function fingerprinted(inner: Transport): { transport: Transport; digest: () => string } {
  const hash = createHash("sha256");
  let calls = 0;
  const transport: Transport = async (tool, args) => {
    const answer = await inner(tool, args);
    calls++;
    hash.update(JSON.stringify([tool, args, answer.response, answer.events]));
    hash.update("\n");
    return answer;
  };
  return { transport, digest: () => `${calls}:${hash.digest("hex").slice(0, 16)}` };
}

function setupOf(text: string, flow: string, seed: number, transport: Transport): RunSetup {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error("the spec does not check clean");
  const shapes = new Shapes(target.spec, target.literals);
  const solver = new Solver(target.spec, shapes, seed, virtualFiles(target.literals.strings));
  return { target, shapes, solver, transport, flow, maxCalls: 60 };
}

/** Each flow of the spec, with the inputs exhaustive mode plans it with (every input a string). */
function flowsOf(text: string): [string, Record<string, unknown>][] {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error("the spec does not check clean");
  return [...target.spec.flows.values()].map((f) => [
    f.name,
    Object.fromEntries(f.inputNames.map((n) => [n, "v1"])),
  ]);
}

async function randomDigest(text: string, flow: string, seed: number): Promise<string> {
  const { transport, digest } = fingerprinted(fuzzTransport(text));
  await exploreRandom(setupOf(text, flow, seed, transport), {
    seed,
    runs: RUNS,
    deadline: null,
    now: () => 0,
  });
  return digest();
}

async function exhaustiveDigest(
  text: string,
  flow: string,
  inputs: Record<string, unknown>,
): Promise<string> {
  const { transport, digest } = fingerprinted(fuzzTransport(text));
  const explored = await exploreExhaustive(setupOf(text, flow, 0, transport), [inputs], {
    maxPaths: MAX_PATHS,
    deadline: null,
    now: () => 0,
  });
  return `${explored.paths}/${digest()}`;
}

/** Recorded from the fuzzer before the move: spec → flow → mode (exhaustive, seed N) → calls:hash. */
const RECORDED: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>> = {
  race: {
    main: {
      exhaustive: "22/113:e70a42838b497553",
      "seed 1": "82:6aae178b9a75d9ad",
      "seed 42": "80:8f3bddbb10c6b47c",
      "seed 7777": "84:9dbea93c9c6589bd",
    },
  },
  quorum: {
    main: {
      exhaustive: "7/31:205992755be5c947",
      "seed 1": "81:fcd134ec91368493",
      "seed 42": "80:9e0205d9fc52ba5b",
      "seed 7777": "82:076823286f37d810",
    },
  },
  debate: {
    main: {
      exhaustive: "5/25:6c4002b045712f5d",
      "seed 1": "101:5b13b7c03f29c9e7",
      "seed 42": "98:61bfd7d1a4f916f9",
      "seed 7777": "121:02d43d1fff93aa54",
    },
  },
  "decompose-parallel": {
    main: {
      exhaustive: "13/64:2ea6b4144ff8f913",
      "seed 1": "99:1b2457a42c1ca5d9",
      "seed 42": "96:e33cf163d4ecefab",
      "seed 7777": "93:ef0b22a7b35dc715",
    },
  },
  certified: {
    main: {
      exhaustive: "40/200:d76741d55ce58320",
      "seed 1": "97:a1bf3e92b124b6e0",
      "seed 42": "93:47a3f72a804021ef",
      "seed 7777": "93:63886bda7490602f",
    },
  },
  gate: {
    review_loop: {
      exhaustive: "40/640:3276416402d19562",
      "seed 1": "153:17bb7242beefd1ab",
      "seed 42": "146:5d1080f049f0f978",
      "seed 7777": "146:413d87da8016b15a",
    },
  },
  "sub-flows": {
    build_component: {
      exhaustive: "5/22:afbafbef70af3837",
      "seed 1": "84:efc57b3f8f700df4",
      "seed 42": "83:d8a9f6171ef6aa9b",
      "seed 7777": "84:08495750c409c605",
    },
    release: {
      exhaustive: "17/188:070c695d9eda0e06",
      "seed 1": "137:1f470f50a58f9810",
      "seed 42": "131:20f0d0f6eeee0008",
      "seed 7777": "152:1c72d504d68fa235",
    },
  },
};

describe("the fuzzer explores every step kind in the order it did", () => {
  for (const spec of SPECS) {
    it(`${spec.name} (${spec.kinds})`, async () => {
      const seen: Record<string, Record<string, string>> = {};
      for (const [flow, inputs] of flowsOf(spec.text)) {
        const modes: Record<string, string> = {};
        modes.exhaustive = await exhaustiveDigest(spec.text, flow, inputs);
        for (const seed of SEEDS) modes[`seed ${seed}`] = await randomDigest(spec.text, flow, seed);
        seen[flow] = modes;
      }
      if (process.env.RECORD_EXPLORATION === "1") console.log(JSON.stringify({ [spec.name]: seen }));
      expect(seen).toEqual(RECORDED[spec.name]);
    }, 60_000);
  }
});
