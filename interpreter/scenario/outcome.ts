// What running one scenario test gives: pass, or the first fact that differs, located in the test
// file, with what the test expected and what the run did.
import type { ExpectedStatus, SourceRange, StepStatus } from "../../checker/index";

export interface TestFailure {
  /** One sentence: the first differing fact. */
  readonly message: string;
  /** Where in the test file (the script entry, the expectation). */
  readonly range: SourceRange;
  /** What the test file says, and what the run did, when the fact is a comparison. */
  readonly expected?: string;
  readonly actual?: string;
}

/** How the run stands: an ExpectedStatus, or the interpreter's error type when it refused a call. */
export type RunStatus = ExpectedStatus;

export interface TestOutcome {
  readonly name: string;
  readonly failure: TestFailure | null;
  /** How the run ended (after the script, or where it stopped at a failure). */
  readonly status: RunStatus;
  /** The root flow's steps in execution order with their statuses at the end. */
  readonly steps: readonly (readonly [string, StepStatus])[];
  /** The tool calls made (the plan included). */
  readonly calls: number;
}
