// The fuzzer decides on the interpreter's typed events and structured response fields, never on
// message texts: the corpus' counterexamples of the findings that come from a rejected result or a
// raising expression (ensure, skip_if, exit_criterion, accumulate) replayed through a transport
// that replaces every text of the responses and the events by nonsense give the same findings.
import { beforeAll, describe, expect, it } from "vitest";
import {
  fuzzSpec,
  fuzzTransport,
  type Plain,
  replayCounterexample,
  type Transport,
  type WireCall,
} from "../../fuzzer/index";
import type { FlowEvent } from "../../interpreter/index";
import { loadCorpus } from "./support/corpus";

/** Keys whose string values are message texts (the rest are data: ids, statuses, kinds). */
const TEXT_KEYS = new Set([
  "text",
  "message",
  "why",
  "detail",
  "violations",
  "warnings",
  "exit_criterion_error",
  "accumulate_error",
  "reason",
  "rationale",
]);

/** The value with every message text replaced by nonsense (data strings are kept). */
function scrambled(v: unknown, key = ""): unknown {
  if (typeof v === "string") return TEXT_KEYS.has(key) ? `zz ${v.length} qq` : v;
  if (Array.isArray(v)) return v.map((x) => scrambled(x, key));
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrambled(x, k)]));
  }
  return v;
}

function scrambling(inner: Transport): Transport {
  return async (tool, args) => {
    const answer = await inner(tool, args);
    // Audits are read for structured record fields only; their texts are scrambled too.
    return {
      response: scrambled(answer.response) as Plain,
      events: answer.events === null ? null : (scrambled(answer.events) as FlowEvent[]),
    };
  };
}

const CODES = new Set([
  "FUZZ-ENSURE-RAISES",
  "FUZZ-SKIP-IF-RAISES",
  "FUZZ-EXIT-CRITERION-RAISES",
  "FUZZ-ACCUMULATE-FAILS",
]);

interface Case {
  readonly name: string;
  readonly text: string;
  readonly calls: readonly WireCall[];
  readonly code: string;
  readonly flow: string;
  readonly step: string | null;
}

describe("a reworded message cannot change a fuzz verdict", () => {
  const cases: Case[] = [];
  beforeAll(async () => {
    const corpus = loadCorpus().filter((s) =>
      /^(control-)?(ensure-raises|skip-if-raises|exit-criterion-raises|accumulate-fails)-/.test(s.name),
    );
    for (const spec of corpus) {
      const { report } = await fuzzSpec(spec.text);
      for (const f of report?.findings ?? []) {
        if (!CODES.has(f.code) || f.counterexample === null) continue;
        cases.push({
          name: spec.name,
          text: spec.text,
          calls: f.counterexample.calls,
          code: f.code,
          flow: f.flow,
          step: f.step,
        });
      }
    }
  }, 240_000);

  it("finds the text-free findings in the corpus", () => {
    expect(new Set(cases.map((c) => c.code))).toEqual(CODES);
  });

  it("without events a replay cannot judge: judged false, not reproduced, the steps all there", async () => {
    const c = cases[0]!;
    const inner = fuzzTransport(c.text);
    const noEvents: Transport = async (tool, args) => ({
      response: (await inner(tool, args)).response,
      events: null,
    });
    const r = await replayCounterexample(c.text, c.calls, noEvents, {
      code: c.code,
      flow: c.flow,
      step: c.step,
    });
    expect(r).toMatchObject({ judged: false, reproduced: false });
    expect(r.steps).toHaveLength(c.calls.length);
  });

  it("replayed with every text scrambled, each counterexample shows the same findings", async () => {
    for (const c of cases) {
      const expect_ = { code: c.code, flow: c.flow, step: c.step };
      const plain = await replayCounterexample(c.text, c.calls, fuzzTransport(c.text), expect_);
      const noisy = await replayCounterexample(c.text, c.calls, scrambling(fuzzTransport(c.text)), expect_);
      expect(plain.reproduced, c.name).toBe(true);
      expect(noisy.reproduced, c.name).toBe(true);
      const place = (o: { code: string; flow: string; step: string | null; anchor: unknown }) =>
        JSON.stringify([o.code, o.flow, o.step, o.anchor]);
      expect(noisy.observations.map(place), c.name).toEqual(plain.observations.map(place));
    }
  }, 240_000);
});
