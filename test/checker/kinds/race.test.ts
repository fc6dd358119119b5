// Race steps in the checker (stratumc's extension, docs/design/concurrency-constructs.md §3): the kind
// `type` selects, candidates as a count or a list, the key rules with their exact ranges, the
// member-id rule, the result type R(s) and the IR with the step's agent and intent applied.
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { completionsAt, hoverAt } from "../../../checker/services/assist";
import { withCursor } from "../services/markers";

function raceSpec(step: string, version = "0.3"): string {
  return [
    `version: "${version}"`,
    "contracts:",
    "  Patch:",
    "    tests_pass: {type: boolean}",
    "    diff: {type: string}",
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
    "      - id: fix",
    "        type: race",
    "        agent: claude",
    "        output_contract: Patch",
    ...step.split("\n").map((l) => `        ${l}`),
    "      - id: use",
    '        intent: "Apply {d}"',
    "        inputs: {d: $.steps.fix.output.diff}",
    "        depends_on: [fix]",
    "",
  ].join("\n");
}

function diagnostics(text: string): string[] {
  return checkSpec(text).diagnostics.map(
    (d) => `${d.code} ${d.line}:${d.column}-${d.end_line}:${d.end_column} ${d.message}`,
  );
}

describe("race steps", () => {
  it("candidates: N gives c1 … cN with the step's agent and intent; retries default to 1", () => {
    const checked = checkSpec(raceSpec('intent: "Fix it"\ncandidates: 3\nensure: ["result.tests_pass"]'));
    expect(checked.diagnostics).toEqual([]);
    const step = checked.ir?.flows.get("main")?.stepById.get("fix");
    expect(step?.kind).toBe("race");
    expect(step?.retries).toBe(1);
    expect(step?.race?.candidates).toEqual([
      { id: "c1", agent: "claude", intent: "Fix it" },
      { id: "c2", agent: "claude", intent: "Fix it" },
      { id: "c3", agent: "claude", intent: "Fix it" },
    ]);
  });

  it("a list of candidates keeps their own agent and intent and falls back to the step's", () => {
    const checked = checkSpec(
      raceSpec(
        'intent: "Fix it"\ncandidates:\n  - {id: careful}\n  - {id: bold, agent: codex, intent: "Rewrite"}',
      ),
    );
    expect(checked.diagnostics).toEqual([]);
    expect(checked.ir?.flows.get("main")?.stepById.get("fix")?.race?.candidates).toEqual([
      { id: "careful", agent: "claude", intent: "Fix it" },
      { id: "bold", agent: "codex", intent: "Rewrite" },
    ]);
  });

  it("the step's result type is the output contract's: a wrong field is reported", () => {
    const text = raceSpec('intent: "Fix"\ncandidates: 2').replace("output.diff", "output.dif");
    expect(diagnostics(text)).toEqual([
      "SPEC-REF-UNKNOWN-FIELD 18:40-18:43 Reference '$.steps.fix.output.dif': contract 'Patch' has no field 'dif'",
    ]);
  });

  it("ensure is type-checked against the output contract", () => {
    expect(diagnostics(raceSpec('intent: "Fix"\ncandidates: 2\nensure: ["result.passes"]'))).toEqual([
      "EXPR-UNKNOWN-FIELD 16:26-16:32 contract 'Patch' has no field 'passes'",
    ]);
  });

  it("SPEC-RACE-MISSING-KEY: no candidates; no intent for a count or for a candidate without one", () => {
    expect(diagnostics(raceSpec('intent: "Fix"'))).toEqual([
      "SPEC-RACE-MISSING-KEY 10:13-10:16 Race step 'fix' must have 'candidates'",
    ]);
    expect(diagnostics(raceSpec("candidates: 2"))).toEqual([
      "SPEC-RACE-MISSING-KEY 10:13-10:16 Race step 'fix' must have 'intent'",
    ]);
    expect(diagnostics(raceSpec('intent: ""\ncandidates: 2'))).toEqual([
      "SPEC-RACE-MISSING-KEY 14:17-14:19 Race step 'fix' must have 'intent'",
    ]);
    expect(diagnostics(raceSpec('candidates:\n  - {id: a, intent: "A"}\n  - {id: b}'))).toEqual([
      "SPEC-RACE-MISSING-KEY 10:13-10:16 Race step 'fix' must have 'intent'",
    ]);
    expect(diagnostics(raceSpec('candidates:\n  - {id: a, intent: "A"}\n  - {id: b, intent: "B"}'))).toEqual(
      [],
    );
  });

  it("SPEC-MEMBER-DUPLICATE-ID at the second id", () => {
    expect(
      diagnostics(raceSpec('intent: "Fix"\ncandidates:\n  - {id: a}\n  - {id: b}\n  - {id: a}')),
    ).toEqual(["SPEC-MEMBER-DUPLICATE-ID 18:18-18:19 Step 'fix' has two candidates with id 'a'"]);
  });

  it("structure: a count below 1, an empty list, a member without id or with an unknown key", () => {
    expect(diagnostics(raceSpec('intent: "Fix"\ncandidates: 0'))).toEqual([
      "SCHEMA-MINIMUM 15:21-15:22 0 is less than the minimum of 1",
    ]);
    expect(diagnostics(raceSpec('intent: "Fix"\ncandidates: []'))[0]).toMatch(
      /^SCHEMA-NON-EMPTY 15:21-15:23 /,
    );
    expect(diagnostics(raceSpec('intent: "Fix"\ncandidates: [{agent: codex}]'))[0]).toMatch(
      /^SCHEMA-REQUIRED .*'id' is a required property/,
    );
    expect(diagnostics(raceSpec('intent: "Fix"\ncandidates: [{id: a, model: x}]'))[0]).toMatch(
      /^SCHEMA-UNKNOWN-KEY /,
    );
    expect(diagnostics(raceSpec('intent: "Fix"\ncandidates: three'))[0]).toMatch(
      /^SCHEMA-TYPE 15:21-15:26 'three' is not valid under any of the given schemas/,
    );
  });

  it("SPEC-RACE-ONLY-KEY: candidates on another step", () => {
    const text = raceSpec('intent: "Fix"\ncandidates: 2').replace(
      "        depends_on: [fix]",
      "        depends_on: [fix]\n        candidates: 2",
    );
    expect(diagnostics(text)).toEqual([
      "SPEC-RACE-ONLY-KEY 20:9-20:19 Step 'use' has 'candidates' but is not a race step",
    ]);
  });

  it("SPEC-STEP-KIND-IGNORED-KEY: function on a race step", () => {
    expect(diagnostics(raceSpec('intent: "Fix"\ncandidates: 2\nfunction: f'))).toContain(
      "SPEC-STEP-KIND-IGNORED-KEY 16:9-16:17 Step 'fix' is a race step: 'function' is ignored",
    );
  });

  it("before 0.3 the keys are unknown", () => {
    const found = diagnostics(raceSpec('intent: "Fix"\ncandidates: 2', "0.2"));
    expect(found.some((d) => d.startsWith("SCHEMA-UNKNOWN-KEY") && d.includes("candidates"))).toBe(true);
  });

  it("editor services: completion offers candidates (not the other kinds' keys) and a member's keys; hover shows the value kind", () => {
    const complete = (step: string) => {
      const { text, offset } = withCursor(raceSpec(step));
      return completionsAt({ text, check: checkSpec(text) }, offset).map((i) => i.label);
    };
    const labels = complete('intent: "Fix"\n<|>');
    expect(labels).toContain("candidates");
    for (const key of ["runs", "source", "debaters", "function", "on_approve"])
      expect(labels).not.toContain(key);
    expect(complete('intent: "Fix"\ncandidates:\n  - {id: a, <|>}')).toEqual(
      expect.arrayContaining(["agent", "intent"]),
    );
    const { text, offset } = withCursor(raceSpec('intent: "Fix"\ncandi<|>dates: 2'));
    expect(hoverAt({ text, check: checkSpec(text) }, offset)?.contents).toContain("integer ≥ 1 | list of");
  });
});
