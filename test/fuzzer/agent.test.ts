// The fuzzer's agent writes what a well-behaved agent would: the hints read from the typed IR of a
// step's expressions, the derived candidates built from them (values/derived.ts), the certificate of
// a reasoning_template (values/certificate.ts), and the "do it right" search that tries the derived
// candidates first, so what it finds does not depend on the seed.
import { describe, expect, it } from "vitest";
import { certificateBody, certified } from "../../fuzzer/values/certificate";
import { patternExamples } from "../../fuzzer/values/derived";
import { stepHints, typeAt } from "../../fuzzer/values/expr-hints";
import { certificateViolations, checkContract, checkOutputSchema } from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/index";
import { agentFor, NO_PATHS, oneStep } from "./support/agent";

const SEEDS = [1, 7, 11, 42, 99];

function derivedOf(text: string, id = "s"): unknown[] {
  const agent = agentFor(text);
  return [...agent.solver.derived.results(agent.step(id))];
}

function fieldValues(text: string, field: string): unknown[] {
  return derivedOf(text).map((r) => (r as Record<string, unknown>)[field]);
}

describe("hints from the typed IR of the expressions", () => {
  it("reads conversions, membership, lengths and compared literals per field", () => {
    const agent = agentFor(
      oneStep(
        `count: { type: string }
verdict: { type: string }
tags: { type: array, items: { type: string } }
text: { type: string }
size: { type: integer }`,
        [
          "int(result.count) >= 2",
          "result.verdict in ['yes', 'no']",
          "'urgent' in result.tags",
          "'LGTM' in result.text",
          "len(result.tags) == 3",
          "result.size < 10",
        ],
      ),
    );
    const hints = stepHints(agent.spec, agent.step("s"));
    expect(hints.get(["count"])?.numeric).toBe(true);
    expect(hints.get(["count"])?.values).toEqual([2]);
    expect(hints.get(["verdict"])?.values).toEqual(["yes", "no"]);
    expect(hints.get(["tags"])?.elements).toEqual(["urgent"]);
    expect(hints.get(["tags"])?.contains).toEqual([]);
    expect(hints.get(["tags"])?.lengths).toEqual([2, 3, 4]);
    expect(hints.get(["text"])?.contains).toEqual(["LGTM"]);
    expect(hints.get(["size"])?.values).toEqual([10]);
    expect(hints.get(["size"])?.numeric).toBe(false);
  });

  it("types a field from the step's result type, contracts nested", () => {
    const agent = agentFor(`version: "0.2"
contracts:
  Meta:
    count: { type: string }
  Out:
    meta: { type: Meta }
    n: { type: integer, required: false }
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "Do it"
        inputs: {}
        output_contract: Out
        ensure: ["int(result.meta.count) > 0"]
`);
    const type = agent.step("s").resultType;
    expect(typeAt(type, ["meta", "count"])).toMatchObject({ k: "str" });
    expect(typeAt(type, ["n"]).k).toBe("union");
    expect(typeAt(type, ["nowhere"]).k).toBe("any");
  });
});

describe("derived candidates", () => {
  it("numeric strings for a string field that reaches int() or float(), around the compared literal", () => {
    const text = oneStep("count: { type: string }\nratio: { type: string }", [
      "int(result.count) >= 7",
      "float(result.ratio) > 0.25",
    ]);
    const counts = fieldValues(text, "count");
    for (const s of ["6", "7", "8", "0", "1", "3", "-1", "2.5"]) expect(counts).toContain(s);
    expect(fieldValues(text, "ratio")).toContain("0.75");
  });

  it("no numeric strings for a string field no conversion reaches", () => {
    const counts = fieldValues(oneStep("count: { type: string }", ["len(result.count) > 0"]), "count");
    expect(counts).not.toContain("2.5");
  });

  it("every member of a field's values and of an output_schema enum", () => {
    expect(new Set(fieldValues(oneStep('v: { type: string, values: ["a1", "b2", "c3"] }', []), "v"))).toEqual(
      new Set(["a1", "b2", "c3"]),
    );
    const schema = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "Do it"
        inputs: {}
        output_schema:
          type: object
          required: [level]
          properties:
            level: { enum: [1, 2, "max"] }
`;
    expect(new Set(fieldValues(schema, "level"))).toEqual(new Set([1, 2, "max"]));
  });

  it("lengths N-1, N and N+1 around what len() is compared with, for strings and lists", () => {
    const text = oneStep("title: { type: string }\nitems: { type: array, items: { type: string } }", [
      "len(result.title) <= 12",
      "len(result.items) == 5",
    ]);
    const titles = fieldValues(text, "title").map((t) => (t as string).length);
    for (const n of [11, 12, 13]) expect(titles).toContain(n);
    const sizes = fieldValues(text, "items").map((l) => (l as unknown[]).length);
    for (const n of [4, 5, 6]) expect(sizes).toContain(n);
  });

  it("members of the lists `in` tests, lists holding a member, strings holding a text", () => {
    const text = oneStep("verdict: { type: string }\nlabels: { type: array }\nsummary: { type: string }", [
      "result.verdict in ['accept', 'defer']",
      "'security' in result.labels",
      "'LGTM' in result.summary and 'tests' in result.summary",
    ]);
    const verdicts = fieldValues(text, "verdict");
    expect(verdicts).toContain("accept");
    expect(verdicts).toContain("defer");
    expect(fieldValues(text, "labels").some((l) => Array.isArray(l) && l.includes("security"))).toBe(true);
    expect(
      fieldValues(text, "summary").some(
        (s) => typeof s === "string" && s.includes("LGTM") && s.includes("tests"),
      ),
    ).toBe(true);
  });

  it("strings that match an output_schema pattern, the same on every call", () => {
    const examples = patternExamples("^PROJ-[0-9]{3,5}$");
    expect(examples.length).toBeGreaterThan(0);
    for (const e of examples) expect(e).toMatch(/^PROJ-[0-9]{3,5}$/);
    expect(patternExamples("^PROJ-[0-9]{3,5}$")).toEqual(examples);
    expect(patternExamples("^a{2}$", 3)).toEqual([]);
    expect(patternExamples("(unclosed")).toEqual([]);
  });

  it("the compared literals' neighbours stay", () => {
    expect(fieldValues(oneStep("n: { type: integer }", ["result.n > 40"]), "n")).toEqual(
      expect.arrayContaining([39, 40, 41]),
    );
  });
});

const REVIEW = (artifact: string, template = "{require_citations: true}") => `version: "0.2"
contracts:
  Review:
    verdict: { type: string, values: ["approve", "reject"] }
${artifact}
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "Review"
        inputs: {}
        output_contract: Review
        reasoning_template: ${template}
        ensure: ["result.verdict == 'approve'"]
`;

describe("certificates", () => {
  it("writes every section and a citation in the last", () => {
    const agent = agentFor(REVIEW("    artifact: { type: string }"));
    const template = agent.step("s").reasoningTemplate!;
    const body = certificateBody(template);
    expect(certificateViolations(template, fromJsonValue({ artifact: body }))).toEqual([]);
    expect(body).toMatch(/## Conclusion\n.*\[P1\]/);
  });

  it.each([
    ["a string artifact", "    artifact: { type: string }", "artifact"],
    ["an undeclared artifact", "", "artifact"],
    ["a list artifact", "    artifact: { type: array, items: { type: string } }", "artifact"],
    ["an integer artifact (the reasoning carries it)", "    artifact: { type: integer }", "reasoning"],
    ["an object artifact", "    artifact: { type: object }\n    reasoning: { type: string }", "reasoning"],
  ])("is placed where the interpreter reads it and the contract allows: %s", (_name, field, where) => {
    const agent = agentFor(REVIEW(field));
    const step = agent.step("s");
    const passing = agent.solver.passing(step, NO_PATHS) as Record<string, unknown>;
    expect(passing).not.toBeNull();
    const value = fromJsonValue(passing);
    expect(certificateViolations(step.reasoningTemplate!, value)).toEqual([]);
    expect(agent.solver.conforms(step, value)).toBe(true);
    expect(where in passing).toBe(true);
  });

  it("keeps what an artifact already said", () => {
    const agent = agentFor(REVIEW("    artifact: { type: string }"));
    const step = agent.step("s");
    const out = certified(step, { verdict: "approve", artifact: "APPROVED" }, () => true) as {
      artifact: string;
    };
    expect(out.artifact.startsWith("APPROVED\n\n## Premises")).toBe(true);
  });

  it("is not written for an agent that is not Claude", () => {
    const text = REVIEW("    artifact: { type: string }").replace(
      'intent: "Review"',
      'intent: "Review"\n        agent: codex',
    );
    const agent = agentFor(text);
    expect(certified(agent.step("s"), { verdict: "approve" }, () => true)).toEqual({ verdict: "approve" });
  });
});

describe("the search tries the derived candidates first", () => {
  it.each(SEEDS)(
    "seed %i: a result that int() accepts passes `int(result.count) >= 1` on a string field",
    (seed) => {
      const text = oneStep("tasks_dir: { type: string }\ntask_count: { type: string }", [
        "len(result.tasks_dir) > 0",
        "int(result.task_count) >= 1",
      ]);
      const agent = agentFor(text, seed);
      const step = agent.step("s");
      const found = agent.solver.passing(step, NO_PATHS) as Record<string, string>;
      expect(found).not.toBeNull();
      expect(Number.parseInt(found.task_count!, 10)).toBeGreaterThanOrEqual(1);
      expect(agent.solver.raising(step, NO_PATHS)).not.toBeNull();
      expect(agent.solver.failing(step, NO_PATHS)).not.toBeNull();
    },
  );

  it.each(SEEDS)("seed %i: conjunctions over several fields (membership, sizes, certificate)", (seed) => {
    const text = `version: "0.2"
contracts:
  Audit:
    findings: { type: array, items: { type: string } }
    digest: { type: string }
    verdict: { type: string }
    artifact: { type: string }
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "Audit"
        inputs: {}
        output_contract: Audit
        reasoning_template: {require_citations: true}
        ensure:
          - "len(result.findings) == 5 and 'critical' in result.findings"
          - "len(result.digest) == 40"
          - "result.verdict in ['pass', 'fail']"
`;
    const agent = agentFor(text, seed);
    const step = agent.step("s");
    const found = agent.solver.passing(step, NO_PATHS);
    expect(found).not.toBeNull();
    const outcomes = agent.solver.ensureOutcomes(step, fromJsonValue(found), NO_PATHS);
    expect(outcomes).toEqual([true, true, true]);
    expect(certificateViolations(step.reasoningTemplate!, fromJsonValue(found))).toEqual([]);
  });

  const SINGLE_FIELD: readonly (readonly [string, readonly string[]])[] = [
    ["n: { type: integer }", ["result.n > 3 and result.n < 5"]],
    ["x: { type: number }", ["result.x >= 0.95 and result.x <= 1.0"]],
    ["s: { type: string }", ["result.s.startswith('v') and len(result.s) == 4"]],
    ["s: { type: string }", ["result.s.endswith('.md')", "len(result.s) > 5"]],
    ["flag: { type: boolean }", ["result.flag == False"]],
    ["items: { type: array }", ["len(result.items) > 2 and len(result.items) < 4"]],
    ["c: { type: string }", ["float(result.c) > 0.9 and float(result.c) < 1"]],
    ["c: { type: string, required: false }", ["result.c is not None and int(result.c) == 12"]],
    ["m: { type: object }", ["result.m['k'] == 3"]],
    ["s: { type: string }", ["result.s.lower() == 'yes'"]],
  ];

  it.each(SINGLE_FIELD.map(([fields, ensure]) => [ensure.join(", "), fields, ensure] as const))(
    "meets %s on every seed",
    (_name, fields, ensure) => {
      for (const seed of SEEDS) {
        const agent = agentFor(oneStep(fields, ensure), seed);
        const step = agent.step("s");
        const found = agent.solver.passing(step, NO_PATHS);
        expect(found, `seed ${seed}`).not.toBeNull();
        expect(
          agent.solver.ensureOutcomes(step, fromJsonValue(found), NO_PATHS).every((o) => o === true),
        ).toBe(true);
      }
    },
  );

  it("every derived candidate called conforming passes the interpreter's checks", () => {
    const agent = agentFor(
      oneStep(
        `a: { type: string }
b: { type: integer, required: false }
c: { type: array, items: { type: number } }`,
        ["int(result.a) > 2", "len(result.c) == 2"],
      ),
    );
    const step = agent.step("s");
    const contract = agent.shapes.contractOf(step)!;
    const list = agent.solver.conforming(step).slice(0, agent.solver.derivedCount(step));
    expect(list.length).toBeGreaterThan(10);
    for (const c of list) expect(checkContract(c.value, contract, agent.spec)).toEqual([]);
  });
});

describe("output_schema checks of derived candidates", () => {
  it("a schema with a pattern, bounds and required keys yields conforming candidates", () => {
    const agent = agentFor(`version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: s
        intent: "Do it"
        inputs: {}
        output_schema:
          type: object
          required: [id, n]
          properties:
            id: { type: string, pattern: "^[A-Z]{2}-[0-9]+$" }
            n: { type: integer, minimum: 3, maximum: 9 }
            tags: { type: array, minItems: 1, items: { type: string } }
        ensure: ["result.n == 9", "result.id.startswith('AB')"]
`);
    const step = agent.step("s");
    const derived = agent.solver.conforming(step).slice(0, agent.solver.derivedCount(step));
    expect(derived.length).toBeGreaterThan(0);
    for (const c of derived) expect(checkOutputSchema(c.value, step.outputSchema!)).toEqual([]);
    expect(agent.solver.passing(step, NO_PATHS)).not.toBeNull();
  });
});
