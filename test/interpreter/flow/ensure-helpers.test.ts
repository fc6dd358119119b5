// The ensure helpers vocabulary_compliance and plan_completion in a flow
// (docs/reference/language.md §10.9): the reference's own end-to-end cases (its test_vocabulary_compliance_flow.py), through
// stratum_plan and stratum_step_done with the flow's working root: a helper's violations are listed
// one by one, as the reference's ensure loop lists them, never as one stringified list.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { harness, plain, planOk, result } from "./api-fixtures";

const VOCAB_SPEC = `version: "0.2"
contracts:
  Out:
    files_changed:
      type: array
      items: {type: string}
functions:
  work:
    mode: infer
    intent: "Implement the feature"
    input: {}
    output: Out
    ensure:
      - "vocabulary_compliance('vocab.yaml', result.files_changed)"
    retries: 2
flows:
  main:
    input: {}
    output: Out
    steps:
      - id: build
        function: work
        inputs: {}
`;

const PLAN_SPEC = `version: "0.2"
flows:
  main:
    input: {}
    steps:
      - id: build
        intent: "Implement the plan"
        ensure:
          - "plan_completion(result.plan_items, result.files_changed, 90)"
          - "result.done"
        retries: 2
`;

let dir = "";
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "ensure-helpers-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function buildOnce(spec: string, reported: string): Promise<unknown> {
  const h = harness(dir);
  const plan = await planOk(h.api, spec);
  return plain(
    await h.api.stepDone({ flow_id: String(plan.flow_id), step_id: "build", result: result(reported) }),
  );
}

describe("vocabulary_compliance in an ensure", () => {
  it("passes a clean result", async () => {
    writeFileSync(
      join(dir, "vocab.yaml"),
      "user_id:\n  reject: [userId]\n  reason: 'DB column is user_id'\n",
    );
    writeFileSync(join(dir, "clean.py"), "user_id = 1\n");
    expect(await buildOnce(VOCAB_SPEC, '{"files_changed": ["clean.py"]}')).toMatchObject({
      status: "complete",
    });
  });

  it("fails with the violation as its own text", async () => {
    writeFileSync(
      join(dir, "vocab.yaml"),
      "user_id:\n  reject: [userId]\n  reason: 'DB column is user_id'\n",
    );
    writeFileSync(join(dir, "bad.py"), "userId = 1\n");
    expect(await buildOnce(VOCAB_SPEC, '{"files_changed": ["bad.py"]}')).toMatchObject({
      status: "ensure_failed",
      violations: [
        "vocabulary violation: bad.py:1 uses 'userId' — canonical is 'user_id' (reason: DB column is user_id)",
      ],
    });
  });

  it("is a no-op without a vocabulary file", async () => {
    writeFileSync(join(dir, "code.py"), "userId = 1\nuid = 2\nuserId = 3\n");
    expect(await buildOnce(VOCAB_SPEC, '{"files_changed": ["code.py"]}')).toMatchObject({
      status: "complete",
    });
  });

  it("lists several violations one by one", async () => {
    writeFileSync(join(dir, "vocab.yaml"), "user_id:\n  reject: [userId, uid]\n");
    writeFileSync(join(dir, "bad.py"), "userId = 1\nuid = 2\ndef foo(userId): return uid\n");
    expect(await buildOnce(VOCAB_SPEC, '{"files_changed": ["bad.py"]}')).toMatchObject({
      status: "ensure_failed",
      violations: [
        "vocabulary violation: bad.py:1 uses 'userId' — canonical is 'user_id'",
        "vocabulary violation: bad.py:2 uses 'uid' — canonical is 'user_id'",
        "vocabulary violation: bad.py:3 uses 'userId' — canonical is 'user_id'",
        "vocabulary violation: bad.py:3 uses 'uid' — canonical is 'user_id'",
      ],
    });
  });

  it("reports a malformed vocabulary file as one violation", async () => {
    writeFileSync(join(dir, "vocab.yaml"), "user_id: [unclosed\n");
    writeFileSync(join(dir, "a.py"), "x\n");
    const r = (await buildOnce(VOCAB_SPEC, '{"files_changed": ["a.py"]}')) as { violations: string[] };
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toMatch(/^vocabulary\.yaml malformed: /);
  });

  it("never reads outside the flow's working root", async () => {
    const outside = realpathSync(mkdtempSync(join(tmpdir(), "ensure-helpers-outside-")));
    try {
      writeFileSync(join(dir, "vocab.yaml"), "user_id:\n  reject: [userId]\n");
      writeFileSync(join(outside, "bad.py"), "userId = 1\n");
      const path = JSON.stringify(join(outside, "bad.py"));
      expect(await buildOnce(VOCAB_SPEC, `{"files_changed": [${path}]}`)).toMatchObject({
        status: "complete",
      });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe("plan_completion in an ensure", () => {
  const items = '[{"text": "parser", "file": "p.ts", "critical": true}, {"text": "docs", "file": "d.md"}]';

  it("lists its violations, then the next ensure's", async () => {
    expect(
      await buildOnce(PLAN_SPEC, `{"plan_items": ${items}, "files_changed": [], "done": false}`),
    ).toMatchObject({
      status: "ensure_failed",
      violations: ["Missing critical item: parser (expected in p.ts)", "ensure 'result.done' failed"],
    });
  });

  it("passes when the plan is covered", async () => {
    const reported = `{"plan_items": ${items}, "files_changed": ["p.ts", "d.md"], "done": true}`;
    expect(await buildOnce(PLAN_SPEC, reported)).toMatchObject({ status: "complete" });
  });
});
