// A scenario test file (`*.stratum-test.yaml`) as loaded: every name and value keeps its source
// range, so a failing test and a diagnostic both point at what the author wrote. Values that go to
// the interpreter (inputs, results, expected output) stay YAML nodes; `scenario/values.ts` turns
// them into run-time values.
import type { SourceRange } from "../base/source-range";
import type { SpecNode } from "../yaml/nodes";

export interface Located<T> {
  readonly value: T;
  readonly range: SourceRange;
}

export const GATE_OUTCOMES = ["approve", "revise", "kill"] as const;
type GateOutcome = (typeof GATE_OUTCOMES)[number];

/** How a test expects the run to stand when its script is used up. */
export const EXPECTED_STATUSES = ["complete", "failed", "killed", "waiting"] as const;
export type ExpectedStatus = (typeof EXPECTED_STATUSES)[number];

/** A step's status after the run, as `expect.steps` names it. */
export const STEP_STATUSES = ["pending", "running", "done", "failed", "skipped"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const MERGE_STATUSES = ["clean", "conflict"] as const;
export const TASK_STATUSES = ["complete", "failed"] as const;

export interface ParallelTaskEntry {
  readonly id: Located<string>;
  readonly result: SpecNode | null;
  readonly status: (typeof TASK_STATUSES)[number];
  readonly range: SourceRange;
}

/** One answer of the script, for the next dispatch. */
export type ScriptEntry =
  /** A step's result (`result`), or an attempt the interpreter must refuse (`fail`, with an optional `result`). */
  | {
      readonly kind: "step";
      readonly step: Located<string>;
      readonly result: SpecNode | null;
      readonly fail: Located<string> | null;
      readonly range: SourceRange;
    }
  | {
      readonly kind: "gate";
      readonly step: Located<string>;
      readonly outcome: Located<GateOutcome>;
      readonly note: string;
      readonly range: SourceRange;
    }
  | {
      readonly kind: "skip";
      readonly step: Located<string>;
      readonly reason: string;
      readonly range: SourceRange;
    }
  /** One iteration report of a step's loop (`report`), or the loop given up (`abort`). */
  | {
      readonly kind: "iteration";
      readonly step: Located<string>;
      readonly report: SpecNode | null;
      readonly abort: string | null;
      readonly range: SourceRange;
    }
  | {
      readonly kind: "parallel";
      readonly step: Located<string>;
      readonly tasks: readonly ParallelTaskEntry[];
      readonly merge: (typeof MERGE_STATUSES)[number];
      readonly range: SourceRange;
    };

export interface StepExpectation {
  readonly step: Located<string>;
  readonly status: Located<StepStatus>;
}

export interface ScenarioExpect {
  readonly status: Located<ExpectedStatus> | null;
  /** Subset match: every key written must be in the output with an equal value. */
  readonly output: SpecNode | null;
  readonly steps: readonly StepExpectation[];
  readonly range: SourceRange;
}

/** Files the spec's file builtins see during a test: path relative to the working root → text. */
export type ScenarioFiles = ReadonlyMap<string, string>;

export interface ScenarioTest {
  readonly name: Located<string>;
  /** The file's `files` with the test's own added (a test's text wins). */
  readonly files: ScenarioFiles;
  readonly input: SpecNode | null;
  readonly script: readonly ScriptEntry[];
  readonly expect: ScenarioExpect | null;
  readonly range: SourceRange;
}

export interface ScenarioFile {
  readonly spec: Located<string>;
  readonly flow: Located<string>;
  readonly files: ScenarioFiles;
  readonly tests: readonly ScenarioTest[];
}

/** The file name of a scenario test file. */
export const SCENARIO_FILE = /\.stratum-test\.ya?ml$/;
