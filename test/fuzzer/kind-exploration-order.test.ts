// The fuzzer's exploration of every step kind, call by call: for fixed seeds, random mode makes the
// same calls with the same arguments in the same order and gets the same answers, and exhaustive
// mode enumerates the same paths in the same order. The fingerprints below were recorded from the
// fuzzer before its per-kind code moved into descriptors (fuzzer/run/kinds/), and recorded again
// when the answers gained 0.2.69's keys (cache_hit, cache_key, cache_hits, bounced_tasks: with
// those keys left out, every digest equalled the earlier one), and again when each step_finished
// event gained the output the flow stored and a kill routed by on_kill stopped ending the flow at
// the kill (with the outputs left out of the hash, every digest but the routed kill's equalled the
// earlier one; the call and path counts did not change); a change to what the fuzzer's agent
// answers to a kind, which choices it offers or in which order, changes them.
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
      exhaustive: "22/113:974c9a62de4d6748",
      "seed 1": "82:3fe5fc8dc896740d",
      "seed 42": "80:70ff6096218c0f71",
      "seed 7777": "84:6cd8dc75b38db3ba",
    },
  },
  quorum: {
    main: {
      exhaustive: "7/31:348b2109625b68cc",
      "seed 1": "81:292cb646f4e9f818",
      "seed 42": "80:1eab7a11b43d3528",
      "seed 7777": "82:cc590c8ee21137bd",
    },
  },
  debate: {
    main: {
      exhaustive: "5/25:25584d1075d33924",
      "seed 1": "101:60dbec32d21a7130",
      "seed 42": "98:929c8b17314128c6",
      "seed 7777": "121:9cd231be37701027",
    },
  },
  "decompose-parallel": {
    main: {
      exhaustive: "13/64:c2e9df9f14684632",
      "seed 1": "99:72f289e6ec3ad45c",
      "seed 42": "96:1530acb5fd293c7d",
      "seed 7777": "93:45ab99edb204ef62",
    },
  },
  certified: {
    main: {
      exhaustive: "40/200:1ec12d4b2634cf51",
      "seed 1": "97:59e46fc0d9895241",
      "seed 42": "93:2027894578fb4a9f",
      "seed 7777": "93:4d63c75f3eea804b",
    },
  },
  gate: {
    review_loop: {
      exhaustive: "40/640:3837c403d9441e8a",
      "seed 1": "153:e692c23b35ce7dd3",
      "seed 42": "146:d930536e1a573373",
      "seed 7777": "146:be5c49291cd8a1f1",
    },
  },
  "sub-flows": {
    build_component: {
      exhaustive: "5/22:cd604da852d7d8c0",
      "seed 1": "84:88e53cf0025c86af",
      "seed 42": "83:30b71cbda119696b",
      "seed 7777": "84:77e978b6953e75b7",
    },
    release: {
      exhaustive: "17/188:c61e1d66163e1bec",
      "seed 1": "137:1ff582e1e1f32ece",
      "seed 42": "131:866cf4c326f558e5",
      "seed 7777": "152:08db8b0f84f0d9c8",
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
