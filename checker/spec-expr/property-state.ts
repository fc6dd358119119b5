// The property state as a checker type (docs/guides/testing-a-spec.md "Properties"): what a
// property's `$` paths read after each transition of a run of its flow. A path is walked segment
// by segment from the root record; the step and gate ids come from the flow, a step's output is
// typed by its contract exactly as `$.steps.<id>.output` is in an ensure, and the flow's inputs as
// `$.input.<name>` is. The first problem stops the walk (then the path is `any`, so nothing
// cascades), and is reported with the reference rules' codes at the offending segment.
import type { Path, PathSegment } from "../../grammar/ast";
import { ANY, INT, NONE, RecordType, recordOf, type Type } from "../../stdlib/types/type";
import { union } from "../../stdlib/types/union";
import type { FlowDecl, StepDecl } from "../model/types";
import { inputType, type OutputTypeOf, type RefProblem, walkFields } from "./path-types";

/** `$.flow.status` values. */
const FLOW_STATUSES = ["running", "complete", "failed", "killed"] as const;
/** `$.steps.<id>.status` values. */
const STEP_STATUSES = ["pending", "running", "done", "failed", "skipped"] as const;
/** `$.gates.<id>.outcome` values (or None before the gate's first decision). */
const GATE_OUTCOMES = ["approve", "revise", "kill"] as const;

const FLOW_STATUS: Type = { k: "str", values: FLOW_STATUSES };
const STEP_STATUS: Type = { k: "str", values: STEP_STATUSES };
const GATE_OUTCOME: Type = union({ k: "str", values: GATE_OUTCOMES }, NONE);

export interface StatePath {
  readonly type: Type;
  readonly problem: RefProblem | null;
}

/** The segments of a `$.a.b.c` path with their offsets in the expression text. */
function pathSegments(node: Path): PathSegment[] {
  const out: PathSegment[] = [];
  let start = node.start + 2;
  for (const name of node.text.slice(2).split(".")) {
    out.push({ name, start, end: start + name.length });
    start += name.length + 1;
  }
  return out;
}

function fields(name: string, entries: readonly (readonly [string, Type])[]): RecordType {
  const r = new RecordType(name);
  for (const [key, type] of entries) r.fields.set(key, { type, optional: false });
  return r;
}

const ROOT_KEYS = ["input", "flow", "steps", "gates"] as const;
const ROOT = fields(
  "property state",
  ROOT_KEYS.map((k) => [k, ANY] as const),
);
const FLOW_RECORD = fields("$.flow", [
  ["status", FLOW_STATUS],
  ["round", INT],
]);

/** The property state of one flow: resolves paths, memoising the per-step records. */
export class PropertyState {
  private readonly stepRecords = new Map<StepDecl, RecordType>();

  constructor(
    readonly flow: FlowDecl,
    private readonly outputType: OutputTypeOf,
  ) {}

  private steps(): StepDecl[] {
    return this.flow.steps.filter((s) => s.id !== null);
  }

  /** The gate steps (by id) of the flow. */
  gates(): StepDecl[] {
    return this.steps().filter((s) => s.kind === "gate");
  }

  private stepRecord(step: StepDecl): RecordType {
    let r = this.stepRecords.get(step);
    if (r === undefined) {
      r = fields(`$.steps.${step.id}`, [
        ["status", STEP_STATUS],
        ["attempts", INT],
        ["output", union(this.outputType(step), NONE)],
      ]);
      this.stepRecords.set(step, r);
    }
    return r;
  }

  resolve(node: Path): StatePath {
    const [scope, name, ...rest] = pathSegments(node);
    if (scope === undefined) return { type: ANY, problem: null };
    if (!ROOT.fields.has(scope.name)) {
      return { type: ANY, problem: { kind: "unknown-field", segment: scope, record: ROOT, state: true } };
    }
    if (name === undefined) return { type: ANY, problem: null };
    switch (scope.name) {
      case "input": {
        if (this.flow.entry("input")?.value.kind === "map" && !this.flow.inputNames.includes(name.name)) {
          return {
            type: ANY,
            problem: { kind: "undeclared-input", segment: name, candidates: this.flow.inputNames },
          };
        }
        return walkFields(inputType(this.flow, name.name), rest, null);
      }
      case "flow":
        return this.within(FLOW_RECORD, [name, ...rest]);
      case "steps": {
        const step = this.flow.stepById.get(name.name);
        if (step === undefined) {
          const candidates = this.steps().map((s) => s.id ?? "");
          return { type: ANY, problem: { kind: "unknown-step", segment: name, candidates } };
        }
        return this.within(this.stepRecord(step), rest);
      }
      default: {
        const gate = this.gates().find((g) => g.id === name.name);
        if (gate === undefined) {
          const candidates = this.gates().map((g) => g.id ?? "");
          const notGate = this.flow.stepById.has(name.name);
          return { type: ANY, problem: { kind: "unknown-step", segment: name, candidates, notGate } };
        }
        return this.within(fields(`$.gates.${gate.id}`, [["outcome", GATE_OUTCOME]]), rest);
      }
    }
  }

  /** The fields of a state record are never None (walkFields would add `| none` to each). */
  private within(record: RecordType, rest: readonly PathSegment[]): StatePath {
    const [field, ...below] = rest;
    if (field === undefined) return { type: recordOf(record), problem: null };
    const f = record.fields.get(field.name);
    if (f === undefined)
      return { type: ANY, problem: { kind: "unknown-field", segment: field, record, state: true } };
    return walkFields(f.type, below, null);
  }
}
