// reasoning_template at run time, as stratum-mcp 0.2.50 (executor.py inject_cert_instructions,
// validate_certificate): the intent of a Claude agent's inline step lists the sections, the
// artifact is checked for them before ensure (ensure_failed), and non-Claude agents are exempt.
// Also the contract shorthand `type: enum` at run time (payload as written, canonical check).
import { describe, expect, it } from "vitest";
import { harness, plain, planOk, result } from "./api-fixtures";

const SPEC = (agent: string) => `version: "0.2"
contracts:
  SecurityFindings:
    findings: {type: string}
    artifact: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: sec
        agent: ${agent}
        intent: "Review this diff for security issues only."
        output_contract: SecurityFindings
        ensure:
          - "result.findings != ''"
        retries: 2
        reasoning_template:
          require_citations: true
          sections:
            - {id: premises, label: Premises, description: "List every entry point as [P1], [P2]."}
            - {id: verdict, label: Verdict, description: "List vulnerabilities found."}
`;

const INTENT = [
  "Review this diff for security issues only.",
  "",
  "---",
  "",
  "You MUST structure your response with these sections:",
  "",
  "## Premises",
  "List every entry point as [P1], [P2].",
  "Format each fact as: [P1] <fact, citing file:line>, [P2] ..., etc.",
  "",
  "## Verdict",
  "List vulnerabilities found.",
  "Reference premises by their [P<n>] ID.",
  "",
].join("\n");

describe("reasoning_template", () => {
  it("a Claude agent's payload intent carries the sections", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC("claude"));
    expect(plan.status).toBe("execute_step");
    expect(plain(plan)).toMatchObject({ step_mode: "inline", intent: INTENT });
  });

  it("a missing section is an ensure_failed violation, checked before ensure; a good artifact completes", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC("claude"));
    const flow_id = String(plan.flow_id);
    const bad = await h.api.stepDone({
      flow_id,
      step_id: "sec",
      result: result('{"findings": "", "artifact": "## Premises\\n[P1] a.py:3"}'),
    });
    expect(bad.status).toBe("ensure_failed");
    expect(plain(bad)).toMatchObject({
      violations: ["certificate missing section: Verdict"],
      intent: INTENT,
    });
    const done = await h.api.stepDone({
      flow_id,
      step_id: "sec",
      result: result(
        '{"findings": "none", "artifact": "## Premises\\n[P1] a.py:3\\n## Verdict\\nnone, see [P1]"}',
      ),
    });
    expect(done.status).toBe("complete");
  });

  it("require_citations: a conclusion without [P<n>] is a violation", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC("claude"));
    const r = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "sec",
      result: result('{"findings": "x", "artifact": "## Premises\\n[P1] a.py:3\\n## Verdict\\nnothing"}'),
    });
    expect(plain(r)).toMatchObject({
      status: "ensure_failed",
      violations: ["certificate violation: conclusion contains no premise citations [P<n>]"],
    });
  });

  it("an empty artifact falls back to `reasoning` (Python `or`)", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC("claude:read-only-reviewer"));
    const r = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "sec",
      result: result(
        '{"findings": "x", "artifact": "", "reasoning": "## Premises\\n[P1]\\n## Verdict\\n[P1]"}',
      ),
    });
    expect(r.status).toBe("complete");
  });

  it("a non-Claude agent gets the plain intent and no certificate check", async () => {
    const h = harness();
    const plan = await planOk(h.api, SPEC("codex"));
    expect(plain(plan)).toMatchObject({ intent: "Review this diff for security issues only." });
    const r = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "sec",
      result: result('{"findings": "x", "artifact": "free text"}'),
    });
    expect(r.status).toBe("complete");
  });
});

describe("contract shorthand type: enum at run time", () => {
  const ENUM_SPEC = `version: "0.2"
contracts:
  Verdict:
    decision: {type: enum, values: [approve, reject]}
    tags: {type: array, items: string}
flows:
  main:
    input: {}
    steps:
      - id: decide
        intent: "Decide"
        output_contract: Verdict
        retries: 2
`;

  it("the payload shows the type as written (as the reference); the result is checked in canonical form", async () => {
    const h = harness();
    const plan = await planOk(h.api, ENUM_SPEC);
    expect(plain(plan)).toMatchObject({ output_fields: { decision: "enum", tags: "array" } });
    const bad = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "decide",
      result: result('{"decision": "maybe", "tags": [1]}'),
    });
    expect(plain(bad)).toMatchObject({
      status: "schema_failed",
      violations: [
        "contract violation: field 'decision' must be one of ['approve', 'reject'], got 'maybe'",
        "contract violation: field 'tags[0]' must be of type string, got integer",
      ],
    });
    const ok = await h.api.stepDone({
      flow_id: String(plan.flow_id),
      step_id: "decide",
      result: result('{"decision": "approve", "tags": ["a"]}'),
    });
    expect(ok.status).toBe("complete");
  });
});
