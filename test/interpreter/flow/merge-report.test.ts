// Reading the merge status of parallel_done / advance (string or {status, bounced_tasks}) and
// wording its bounce records as the reference words them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bounceViolations, mergeReportOf, withBouncedTasks } from "../../../interpreter/flow/merge-report";
import { violationTexts } from "../../../interpreter/flow/violations";
import { dictSet } from "../../../stdlib/values/dict";
import { parseJson } from "../../../stdlib/values/json";
import { PyDict } from "../../../stdlib/values/value";

function dict(text: string): PyDict {
  const value = parseJson(text);
  if (!(value instanceof PyDict)) throw new Error("not an object");
  return value;
}

describe("mergeReportOf", () => {
  it("reads the bare string and the object form, a missing status being clean", () => {
    expect(mergeReportOf("conflict")).toEqual({ status: "conflict", bounced: [] });
    expect(mergeReportOf(dict(`{"status": "conflict"}`))).toEqual({ status: "conflict", bounced: [] });
    const report = mergeReportOf(dict(`{"bounced_tasks": [{"task_id": "t1"}]}`));
    expect(report.status).toBe("clean");
    expect(report.bounced).toHaveLength(1);
    expect(mergeReportOf(dict(`{"status": "clean", "bounced_tasks": null}`)).bounced).toEqual([]);
  });
});

describe("bounceViolations", () => {
  it("words gate and conflict bounces and skips other reasons", () => {
    const bounced = parseJson(`[
      {"task_id": "a", "reason": "gate_failed", "command": "make test", "exit_code": 2},
      {"reason": "gate_failed"},
      {"task_id": "b", "reason": "merge_conflict", "files": ["x.ts", "y.ts"]},
      {"task_id": "c", "reason": "merge_conflict", "files": []},
      {"task_id": "d", "reason": "merge_conflict", "files": "ab"},
      {"task_id": "e", "reason": "timeout"},
      "not a record"
    ]`) as readonly PyDict[];
    expect(violationTexts(bounceViolations(bounced))).toEqual([
      "task 'a' failed pre-merge gate `make test` (exit 2) — diff NOT merged",
      "task '?' failed pre-merge gate `None` (exit None) — diff NOT merged",
      "task 'b' merge conflict on x.ts, y.ts",
      "task 'c' merge conflict on (unknown files)",
      "task 'd' merge conflict on a, b",
    ]);
  });

  it("gives one violation per conflict record, naming its task", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.array(fc.string({ minLength: 1 })))), (records) => {
        const bounced = records.map(([id, files]) => {
          const d = new PyDict();
          dictSet(d, "task_id", id);
          dictSet(d, "reason", "merge_conflict");
          dictSet(d, "files", files);
          return d;
        });
        const texts = violationTexts(bounceViolations(bounced));
        expect(texts).toHaveLength(records.length);
        texts.forEach((t, i) => {
          expect(t.startsWith(`task '${records[i]?.[0]}' merge conflict on `)).toBe(true);
        });
      }),
    );
  });
});

describe("withBouncedTasks", () => {
  it("adds the key to a response with violations only", () => {
    expect(withBouncedTasks({ status: "ensure_failed", violations: [] }, [])).toEqual({
      status: "ensure_failed",
      violations: [],
      bounced_tasks: [],
    });
    expect(withBouncedTasks({ status: "error", error_type: "budget_exceeded" }, [])).toEqual({
      status: "error",
      error_type: "budget_exceeded",
    });
  });
});
