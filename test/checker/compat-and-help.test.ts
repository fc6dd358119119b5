// Real-world-shaped specs: the reference's contract shorthands (`type: enum` +
// `values`, `items: <type>`), reasoning_template, the portability warning for lowercase
// true/false/null, and the rewritten help texts (what to write, where).
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../checker/catalogue";
import { checkSpec } from "../../checker/check-spec";
import type { Diagnostic } from "../../checker/diagnostic";

function lines(...xs: string[]): string {
  return `${xs.join("\n")}\n`;
}

function only(text: string, code: string): Diagnostic[] {
  return checkSpec(text).diagnostics.filter((d) => d.code === code);
}

function codes(text: string): string[] {
  return checkSpec(text).diagnostics.map((d) => d.code);
}

/** Applies a diagnostic's fix (single-line edits, ASCII text). */
function applyFix(text: string, d: Diagnostic): string {
  const rows = text.split("\n");
  const edits = [...(d.fix?.edits ?? [])].reverse();
  for (const e of edits) {
    expect(e.line).toBe(e.end_line);
    const row = rows[e.line - 1] ?? "";
    rows[e.line - 1] = row.slice(0, e.column - 1) + e.new_text + row.slice(e.end_column - 1);
  }
  return rows.join("\n");
}

// A code-review flow as people write it against the reference.
const REVIEW = lines(
  'version: "0.2"',
  "contracts:",
  "  Finding:",
  "    file: {type: string}",
  "    severity: {type: enum, values: [low, medium, high]}",
  "  Review:",
  "    verdict: {type: enum, values: [approve, request_changes]}",
  "    findings: {type: array, items: Finding}",
  "    tags: {type: array, items: string}",
  "    score: {type: enum, values: [1, 2, 3]}",
  "functions:",
  "  review:",
  "    mode: infer",
  '    intent: "Review the diff"',
  "    input: {diff: {type: string}}",
  "    output: Review",
  "    ensure:",
  "      - \"result.verdict in ('approve', 'request_changes')\"",
  "      - \"all(f.severity != 'high' for f in result.findings)\"",
  '      - "len(result.tags) >= 0 and result.score >= 1"',
  "flows:",
  "  main:",
  "    input: {diff: {type: string}}",
  "    steps:",
  "      - id: review",
  "        function: review",
  '        inputs: {diff: "$.input.diff"}',
);

describe("contract shorthands of the reference (SPEC-CONTRACT-SHORTHAND)", () => {
  it("are accepted: the spec is valid and each shorthand gets one info note with the canonical form", () => {
    const r = checkSpec(REVIEW);
    expect(r.errors).toEqual([]);
    const notes = only(REVIEW, "SPEC-CONTRACT-SHORTHAND");
    expect(notes.map((d) => [d.severity, d.path, d.message, d.suggestion])).toEqual([
      [
        "info",
        "contracts.Finding.severity.type",
        "Contract 'Finding' field 'severity': type: enum is the reference's shorthand for type: string",
        "Write type: string",
      ],
      [
        "info",
        "contracts.Review.verdict.type",
        "Contract 'Review' field 'verdict': type: enum is the reference's shorthand for type: string",
        "Write type: string",
      ],
      [
        "info",
        "contracts.Review.findings.items",
        "Contract 'Review' field 'findings': items: Finding is the reference's shorthand for items: {type: Finding}",
        "Write items: {type: Finding}",
      ],
      [
        "info",
        "contracts.Review.tags.items",
        "Contract 'Review' field 'tags': items: string is the reference's shorthand for items: {type: string}",
        "Write items: {type: string}",
      ],
      [
        "info",
        "contracts.Review.score.type",
        "Contract 'Review' field 'score': type: enum is the reference's shorthand for type: integer",
        "Write type: integer",
      ],
    ]);
  });

  it("the fixes write the canonical form, which checks clean without notes", () => {
    let text = REVIEW;
    // Apply from the end of the document so earlier positions stay valid.
    for (const d of [...only(REVIEW, "SPEC-CONTRACT-SHORTHAND")].reverse()) {
      expect(d.fix?.machine_applicable).toBe(false);
      text = applyFix(text, d);
    }
    expect(text).toContain("severity: {type: string, values: [low, medium, high]}");
    expect(text).toContain("tags: {type: array, items: {type: string}}");
    expect(text).toContain("score: {type: integer, values: [1, 2, 3]}");
    expect(checkSpec(text).diagnostics).toEqual([]);
  });

  it("the IR holds the canonical form; payloads keep the type as written", () => {
    const ir = checkSpec(REVIEW).ir;
    const review = ir?.contracts.get("Review");
    expect(review?.fields.get("verdict")).toMatchObject({
      type: "string",
      writtenType: "enum",
      kind: "string",
      values: ["approve", "request_changes"],
    });
    expect(review?.fields.get("tags")?.items).toMatchObject({ type: "string", kind: "string" });
  });

  it("the enum is typed: comparing with a value outside `values` is EXPR-ENUM-VALUE", () => {
    const text = REVIEW.replace("('approve', 'request_changes')", "('approve', 'reject')");
    expect(codes(text)).toContain("EXPR-ENUM-VALUE");
  });

  it("an enum whose values mix types stays unknown, with help on what to write", () => {
    const text = REVIEW.replace("values: [1, 2, 3]", "values: [1, two, 3]");
    const [d] = only(text, "SPEC-CONTRACT-FIELD-TYPE-UNKNOWN");
    expect(d?.path).toBe("contracts.Review.score.type");
    expect(d?.suggestion).toBe(
      "Give the values one type and write it: type: string (or integer, number, boolean) with values: [...]",
    );
    const bare = REVIEW.replace("{type: enum, values: [1, 2, 3]}", "{type: enum}");
    expect(only(bare, "SPEC-CONTRACT-FIELD-TYPE-UNKNOWN")[0]?.suggestion).toBe(
      "List the allowed values and give their type: type: string, values: [<a>, <b>]",
    );
  });

  it("a contract named `enum` keeps its meaning", () => {
    const text = lines(
      'version: "0.2"',
      "contracts:",
      "  enum:",
      "    name: {type: string}",
      "  Out:",
      "    e: {type: enum, values: [{name: a}]}",
    );
    expect(only(text, "SPEC-CONTRACT-SHORTHAND")).toEqual([]);
  });
});

// The review skill bundled with stratum-mcp 0.2.50 (skills/stratum-review/SKILL.md), shortened.
const CERT = lines(
  'version: "0.2"',
  "contracts:",
  "  SecurityFindings:",
  "    findings: {type: string}",
  "    artifact: {type: string}",
  "flows:",
  "  review_diff:",
  "    input:",
  "      diff: {type: string}",
  "    steps:",
  "      - id: sec",
  "        agent: claude",
  "        intent: Review this diff for security issues only.",
  '        inputs: {diff: "$.input.diff"}',
  "        output_contract: SecurityFindings",
  "        retries: 2",
  "        on_fail: sec_fallback",
  "        reasoning_template:",
  "          require_citations: true",
  "          sections:",
  "            - id: premises",
  '              label: "Premises"',
  '              description: "List every entry point. Number each as [P1], [P2], etc."',
  "            - id: verdict",
  '              label: "Verdict"',
  '              description: "List vulnerabilities found with severity."',
  "      - id: sec_fallback",
  "        intent: Summarise what could be reviewed.",
);

describe("reasoning_template (as stratum-mcp 0.2.50)", () => {
  it("the bundled review skill's shape checks clean; the certificate counts as validation for on_fail", () => {
    expect(checkSpec(CERT).diagnostics).toEqual([]);
    expect(checkSpec(CERT).ir?.flows.get("review_diff")?.stepById.get("sec")?.reasoningTemplate).toEqual({
      requireCitations: true,
      sections: [
        {
          id: "premises",
          label: "Premises",
          description: "List every entry point. Number each as [P1], [P2], etc.",
        },
        { id: "verdict", label: "Verdict", description: "List vulnerabilities found with severity." },
      ],
    });
  });

  it("for a non-Claude agent the certificate is not validation: on_fail can never trigger", () => {
    const text = CERT.replace("agent: claude", "agent: codex");
    expect(codes(text)).toEqual(["SPEC-ON-FAIL-NO-VALIDATION"]);
  });

  it("without sections the reference's three default sections apply", () => {
    const text = lines(
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: a",
      "        intent: Investigate the failing test",
      "        reasoning_template: {}",
    );
    const template = checkSpec(text).ir?.flows.get("f")?.stepById.get("a")?.reasoningTemplate;
    expect(template?.sections.map((s) => s.label)).toEqual(["Premises", "Trace", "Conclusion"]);
    expect(template?.requireCitations).toBe(false);
  });

  it("is rejected on function and sub-flow steps with the reference's message", () => {
    const text = lines(
      'version: "0.2"',
      "contracts:",
      "  Out: {v: {type: string}}",
      "functions:",
      "  work: {mode: infer, intent: Work, input: {}, output: Out}",
      "flows:",
      "  child:",
      "    input: {}",
      "    steps: [{id: c, intent: x}]",
      "  main:",
      "    input: {}",
      "    steps:",
      "      - id: a",
      "        function: work",
      "        reasoning_template: {}",
      "      - id: b",
      "        flow: child",
      "        reasoning_template: {}",
    );
    const ds = only(text, "SPEC-REASONING-TEMPLATE-STEP-KIND");
    expect(ds.map((d) => [d.path, d.line, d.message, d.suggestion])).toEqual([
      [
        "flows.main.steps.a.reasoning_template",
        15,
        "Step 'a' in flow 'main' has 'reasoning_template' which is not valid on function steps. Use it on inline or decompose steps only.",
        'Move reasoning_template to an inline step (one with intent: "<what to do>")',
      ],
      [
        "flows.main.steps.b.reasoning_template",
        18,
        "Step 'b' in flow 'main' has 'reasoning_template' which is not valid on flow steps. Use it on inline or decompose steps only.",
        'Move reasoning_template to an inline step (one with intent: "<what to do>")',
      ],
    ]);
  });

  it("malformed sections are reported with the reference's texts", () => {
    const base = (sections: string) =>
      lines(
        'version: "0.2"',
        "flows:",
        "  f:",
        "    input: {}",
        "    steps:",
        "      - id: a",
        "        intent: Investigate",
        "        reasoning_template:",
        `          sections: ${sections}`,
      );
    const texts = (s: string) =>
      only(base(s), "SPEC-REASONING-TEMPLATE-SECTIONS").map((d) => [d.path, d.message]);
    expect(texts("[]")).toEqual([
      ["flows.f.steps.a.reasoning_template.sections", "reasoning_template must have at least one section"],
    ]);
    expect(texts("[{id: p, label: Premises}, plain]")).toEqual([
      [
        "flows.f.steps.a.reasoning_template.sections.0",
        "reasoning_template section 0 is missing required field 'description'",
      ],
      [
        "flows.f.steps.a.reasoning_template.sections.1",
        "reasoning_template section 1 must be a mapping, got str",
      ],
    ]);
  });

  it("is an unknown key in a 0.1 spec", () => {
    const text = lines(
      'version: "0.1"',
      "contracts: {Out: {v: {type: string}}}",
      "functions:",
      "  w: {mode: infer, intent: x, input: {}, output: Out}",
      "flows:",
      "  f:",
      "    input: {}",
      "    output: Out",
      "    steps:",
      "      - {id: a, function: w, inputs: {}, reasoning_template: {}}",
    );
    expect(only(text, "SCHEMA-UNKNOWN-KEY")[0]?.suggestion).toBe(
      `'reasoning_template' requires version "0.2"`,
    );
  });
});

describe("EXPR-LOWERCASE-LITERAL (portability to the reference)", () => {
  const spec = (ensure: string, skip = "$.steps.check.output.ok == true") =>
    lines(
      'version: "0.2"',
      "contracts:",
      "  Result:",
      "    ok: {type: boolean}",
      "    note: {type: string, required: false}",
      "    items: {type: array}",
      "functions:",
      "  check:",
      "    mode: compute",
      "    intent: Run the test suite",
      "    input: {}",
      "    output: Result",
      "    ensure:",
      `      - "${ensure}"`,
      "flows:",
      "  main:",
      "    input: {}",
      "    steps:",
      "      - id: check",
      "        function: check",
      "        inputs: {}",
      "      - id: fix",
      "        intent: Fix what failed",
      "        depends_on: [check]",
      `        skip_if: "${skip}"`,
      "        max_iterations: 3",
      '        exit_criterion: "result.done == true"',
      '        accumulate: "result.items if result.items != null else []"',
    );

  it("warns in ensure, exit_criterion and accumulate with a machine-applicable fix, not in skip_if", () => {
    const text = spec("result.ok == true");
    const ds = only(text, "EXPR-LOWERCASE-LITERAL");
    expect(ds.map((d) => [d.severity, d.path, d.line, d.column, d.message])).toEqual([
      [
        "warning",
        "functions.check.ensure.0",
        14,
        23,
        "'true' is not portable in ensure expressions: stratum-mcp 0.2.50 raises \"name 'true' is not defined\" on every run; write 'True'",
      ],
      [
        "warning",
        "flows.main.steps.fix.exit_criterion",
        27,
        41,
        "'true' is not portable in exit_criterion expressions: stratum-mcp 0.2.50 raises \"name 'true' is not defined\" on every run; write 'True'",
      ],
      [
        "warning",
        "flows.main.steps.fix.accumulate",
        28,
        54,
        "'null' is not portable in accumulate expressions: stratum-mcp 0.2.50 raises \"name 'null' is not defined\" on every run; write 'None'",
      ],
    ]);
    expect(ds[0]?.fix).toEqual({
      description: "Replace 'true' with 'True'",
      edits: [{ line: 14, column: 23, end_line: 14, end_column: 27, new_text: "True" }],
    });
  });

  it("applying the fixes leaves the spec without portability warnings", () => {
    let text = spec("result.note != null or not false");
    for (const d of [...only(text, "EXPR-LOWERCASE-LITERAL")].reverse()) text = applyFix(text, d);
    expect(text).toContain('"result.note != None or not False"');
    expect(text).toContain('exit_criterion: "result.done == True"');
    expect(only(text, "EXPR-LOWERCASE-LITERAL")).toEqual([]);
  });

  it("is documented in the catalogue with an example", () => {
    const rule = CATALOGUE.get("EXPR-LOWERCASE-LITERAL");
    expect(rule?.severity).toBe("warning");
    expect(rule?.example?.good).toContain("True");
  });
});

describe("help texts say what to write, where", () => {
  it("SCHEMA-REQUIRED lists only the missing keys, with a value, at the mapping that lacks them", () => {
    const text = lines(
      'version: "0.2"',
      "flows:",
      "  deploy:",
      "    steps:",
      "      - id: build",
      "        intent: Build the release",
    );
    const [d] = only(text, "SCHEMA-REQUIRED");
    expect([d?.path, d?.message, d?.suggestion]).toEqual([
      "flows.deploy",
      "'input' is a required property",
      "Add input: {} to flow 'deploy'",
    ]);
  });

  it("several missing keys: one diagnostic each, the help names them all (and only them)", () => {
    const text = lines(
      'version: "0.1"',
      "contracts: {Out: {v: {type: string}}}",
      "functions:",
      "  summarise:",
      "    mode: infer",
      "    output: Out",
    );
    const ds = only(text, "SCHEMA-REQUIRED");
    expect(ds.map((d) => d.message)).toEqual([
      "'input' is a required property",
      "'intent' is a required property",
    ]);
    for (const d of ds)
      expect(d.suggestion).toBe(`Add intent: "<what to do>" and input: {} to function 'summarise'`);
  });

  it("a step without id is named by its position", () => {
    const text = lines(
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - intent: Do it",
    );
    expect(only(text, "SCHEMA-REQUIRED")[0]?.suggestion).toBe("Add id: <step id> to step 1 of flow 'f'");
  });

  it("SCHEMA-TYPE: YAML 1.1 words and numbers meant as text are quoted", () => {
    const text = lines(
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: confirm",
      "        intent: yes",
      "        skip_if: 1.0",
    );
    const ds = only(text, "SCHEMA-TYPE");
    expect(ds.map((d) => d.suggestion)).toEqual([
      'Quote the value: intent: "yes"',
      'Quote the value: skip_if: "1.0"',
    ]);
  });

  it("SCHEMA-TYPE: a single depends_on id is written as a list; a quoted number loses its quotes", () => {
    const text = lines(
      'version: "0.2"',
      "flows:",
      "  f:",
      "    input: {}",
      "    steps:",
      "      - id: a",
      "        intent: x",
      "      - id: b",
      "        intent: y",
      "        depends_on: a",
      '        retries: "3"',
    );
    expect(only(text, "SCHEMA-TYPE").map((d) => d.suggestion)).toEqual([
      "Write a list, even for one item: depends_on: [a]",
      "Remove the quotes: retries: 3",
    ]);
  });

  it("SCHEMA-TYPE: a contract field written as a bare type name", () => {
    const text = lines('version: "0.2"', "contracts:", "  Out:", "    score: number");
    expect(only(text, "SCHEMA-TYPE")[0]?.suggestion).toBe("Write a field definition: score: {type: number}");
  });

  it("SCHEMA-TYPE: a list item and a mapping", () => {
    const text = lines(
      'version: "0.2"',
      "functions:",
      "  w:",
      "    mode: infer",
      "    intent: x",
      "    input: []",
      "    output: Out",
      "    ensure: [true]",
    );
    expect(only(text, "SCHEMA-TYPE").map((d) => d.suggestion)).toEqual([
      "Write a mapping for 'input': input: {}",
      'Quote the item: - "true"',
    ]);
  });

  it("SCHEMA-MINIMUM, SCHEMA-NON-EMPTY and SCHEMA-PATTERN", () => {
    const text = lines(
      'version: "0.2"',
      "workflow:",
      "  name: Release_Train",
      "  description: Ship it",
      "  input: {}",
      "flows:",
      "  f:",
      "    input: {}",
      "    max_rounds: 0",
      "    steps: []",
    );
    const help = (code: string) => only(text, code)[0]?.suggestion;
    expect(help("SCHEMA-PATTERN")).toBe(
      "Use lowercase letters, digits and '-', starting with a letter: name: release-train",
    );
    expect(help("SCHEMA-MINIMUM")).toBe("Write a whole number of at least 1 for 'max_rounds': max_rounds: 1");
    expect(help("SCHEMA-NON-EMPTY")).toBe(
      'Add at least one item: steps: [{id: <step id>, intent: "<what to do>"}]',
    );
  });

  it("no structural diagnostic falls back to a generic help", () => {
    const broken = lines(
      'version: "0.2"',
      "contracts: []",
      "functions: {w: {mode: infer, intent: '', input: {}, output: O, budget: {ms: 0}}}",
      "flows: {f: {input: {}, steps: [{id: a, intent: x, inputs: [], on_approve: 3}]}}",
    );
    for (const d of checkSpec(broken).diagnostics) {
      expect(d.suggestion ?? "").not.toContain("See IR schema documentation");
    }
  });

  it("a wrong version does not hide a missing input (structure still checked, no semantic rules)", () => {
    const text = lines(
      'version: "1.0"',
      "contracts:",
      "  Summary: {text: {type: strng}}",
      "flows:",
      "  main:",
      "    steps:",
      "      - id: s",
      "        intent: Summarise",
    );
    const r = checkSpec(text);
    expect(r.diagnostics.map((d) => [d.code, d.path, d.suggestion])).toEqual([
      ["SCHEMA-VERSION-UNKNOWN", "version", 'Use version: "0.3"'],
      ["SCHEMA-REQUIRED", "flows.main", "Add input: {} to flow 'main'"],
    ]);
  });

  it("a missing version says where to add it, and the rest is still checked", () => {
    const text = lines("flows:", "  main:", "    steps: [{id: s, intent: x}]");
    expect(checkSpec(text).diagnostics.map((d) => [d.code, d.suggestion])).toEqual([
      ["SCHEMA-VERSION-UNKNOWN", 'Add version: "0.3" as the first line of the file'],
      ["SCHEMA-REQUIRED", "Add input: {} to flow 'main'"],
    ]);
  });

  it("no EXPR-UNKNOWN-FIELD follow-on for a field whose definition is already reported malformed", () => {
    const text = lines(
      'version: "0.2"',
      "contracts:",
      "  Analysis:",
      "    summary: {type: string}",
      "    confidence: number",
      "functions:",
      "  analyse:",
      "    mode: infer",
      "    intent: Analyse the logs",
      "    input: {}",
      "    output: Analysis",
      '    ensure: ["result.confidence > 0.7", "result.sumary != \'\'"]',
      "flows:",
      "  main:",
      "    input: {}",
      "    steps: [{id: a, function: analyse, inputs: {}}]",
    );
    // The malformed `confidence` is reported once; the typo `sumary` is still caught.
    expect(codes(text)).toEqual(["SCHEMA-TYPE", "EXPR-UNKNOWN-FIELD"]);
    expect(only(text, "EXPR-UNKNOWN-FIELD")[0]?.message).toBe("contract 'Analysis' has no field 'sumary'");
  });
});
