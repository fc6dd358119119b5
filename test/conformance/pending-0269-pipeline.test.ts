// The `type: pipeline` scenarios recorded from reference release 0.2.69
// (scripts/record-0269-scenarios.py, test/conformance/recorded/README.md §2.4): these tests hold
// the recorded data to the shape the implementation relies on (the scenarios themselves are
// replayed by test/interpreter/conformance).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { allScenarioFiles, scenariosCwd } from "../interpreter/conformance/scenario";
import { CONFORMANCE_DIR } from "../support/shared";

interface Recorded {
  readonly name: string;
  readonly actions: readonly { readonly op: string }[];
  readonly reference: readonly { readonly op: string; readonly response: Record<string, unknown> }[];
}

interface PipelineTask {
  readonly id: string;
  readonly depends_on: readonly string[];
  readonly _pipeline_item: number;
  readonly _pipeline_stage: number;
  readonly _pipeline_role: string;
}

const PIPELINE_FILES = allScenarioFiles()
  .map((f) => f.file)
  .filter((f) => f.startsWith("v0269_pipeline_"));

function load(file: string): Recorded {
  return JSON.parse(readFileSync(resolve(scenariosCwd(), file), "utf8")) as Recorded;
}

/** The pipeline payloads (parallel_dispatch with `pipeline: true`) among a scenario's responses. */
function pipelinePayloads(recorded: Recorded): PipelineTask[][] {
  return recorded.reference
    .map((r) => r.response)
    .filter((r) => r.status !== "error" && r.pipeline === true && Array.isArray(r.tasks))
    .map((r) => r.tasks as PipelineTask[]);
}

describe("recorded 0.2.69 pipeline scenarios", () => {
  it("are all present", () => {
    expect(PIPELINE_FILES.length).toBe(11);
  });

  it.each(PIPELINE_FILES)("%s has one response per call, the plan's first", (file) => {
    const recorded = load(file);
    expect(`${recorded.name}.json`).toBe(file);
    expect(recorded.reference.map((r) => r.op)).toEqual(["plan", ...recorded.actions.map((a) => a.op)]);
  });

  it.each(PIPELINE_FILES.filter((f) => !f.includes("invalid_specs")))(
    "%s: the payload's tasks form the item x stage graph",
    (file) => {
      const payloads = pipelinePayloads(load(file));
      expect(payloads.length).toBeGreaterThan(0);
      for (const tasks of payloads) {
        const ids = new Set(tasks.map((t) => t.id));
        expect(ids.size).toBe(tasks.length);
        for (const t of tasks) {
          const lane = t._pipeline_role === "lane" ? "::lane\\d+" : "";
          expect(t.id).toMatch(
            new RegExp(`^pipe::item${t._pipeline_item}::stage${t._pipeline_stage}${lane}$`),
          );
          for (const dep of t.depends_on) expect(ids.has(dep)).toBe(true);
          expect(t.depends_on.length === 0).toBe(t._pipeline_stage === 0);
        }
      }
    },
  );

  it("every invalid spec is refused at plan with a path under the pipeline step", () => {
    const recorded = load("v0269_pipeline_invalid_specs.json");
    expect(recorded.reference.length).toBe(20);
    for (const { response } of recorded.reference) {
      expect(response.status).toBe("error");
      expect(String(response.path)).toMatch(/^(flows\.main\.steps\.(pipe|1)\b|root$)/);
    }
  });

  it("the predicate cases bind only the names of their position, and prev/result as text", () => {
    const lines = readFileSync(resolve(CONFORMANCE_DIR, "v0269-pipeline-predicates.jsonl"), "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line) as { position: string; stage: number; expr: string; outcome: unknown });
    expect(lines.length).toBe(21);
    const allowed = (c: { position: string; stage: number }): readonly string[] =>
      c.position === "exit_when"
        ? ["item", "result", "result_raw"]
        : c.stage === 0
          ? ["item"]
          : ["item", "prev", "prev_raw"];
    for (const c of lines) {
      const names = c.expr.match(/\b(item|prev_raw|prev|result_raw|result)\b/g) ?? [];
      const outside = names.some((n) => !allowed(c).includes(n));
      expect(c.outcome === "compile_error").toBe(outside || c.expr.includes("$") || c.expr.includes("__"));
    }
    // Subscripting the text form by a key raises; the raw form answers.
    const byExpr = new Map(lines.map((c) => [`${c.position} ${c.expr}`, c.outcome]));
    expect(byExpr.get("when prev['risk'] == 'high'")).toBe("raises");
    expect(byExpr.get("when prev_raw['risk'] == 'high'")).toBe(true);
    expect(byExpr.get("exit_when result['clean']")).toBe("raises");
    expect(byExpr.get("exit_when result_raw['clean']")).toBe(true);
  });

  it("the server-side runs: a skipped stage passes its predecessor's result on, an unfilled lane null", () => {
    interface TaskRun {
      readonly state: string;
      readonly result: unknown;
      readonly error: string | null;
    }
    const doc = JSON.parse(
      readFileSync(resolve(CONFORMANCE_DIR, "v0269-pipeline-server-runs.json"), "utf8"),
    ) as { runs: { name: string; tasks: Record<string, TaskRun>; prompts: string[] }[] };
    expect(doc.runs.length).toBe(9);
    let skipped = 0;
    for (const run of doc.runs) {
      for (const [id, task] of Object.entries(run.tasks)) {
        expect(["complete", "skipped", "failed", "cancelled"]).toContain(task.state);
        if (task.state === "cancelled") expect(task.error).toMatch(/^(upstream task|fanout require=)/);
        if (task.state !== "skipped") continue;
        skipped++;
        const m = /^pipe::item(\d+)::stage(\d+)(::lane\d+)?$/.exec(id);
        expect(m).not.toBeNull();
        if (m?.[3] !== undefined) {
          expect(task.result).toBeNull();
          continue;
        }
        const prev = run.tasks[`pipe::item${m?.[1]}::stage${Number(m?.[2]) - 1}`];
        expect(task.result).toEqual(prev?.result);
      }
    }
    expect(skipped).toBe(5);
  });
});
