// One `stratum_fuzz` job as a worker runs it (fuzz-worker.ts; from the sources, fuzz-jobs.ts runs it
// in the server's thread): check the spec, fuzz it within what is left of the budget, and post
// progress on the way, so that a job the server has to stop at its deadline still tells what it
// explored. The answer travels as JSON text (encodeWire): a float stays a float across the thread
// boundary.
import { type FuzzProgress, findingJson, fuzzSpec, UnknownFlowError } from "../fuzzer/index";
import type { Response, Wire } from "../interpreter/index";
import { encodeWire } from "../interpreter/index";

export interface FuzzJobRequest {
  readonly kind: "fuzz";
  readonly spec: string;
  readonly flow: string | null;
  readonly runs: number;
  readonly seed: number;
  /** When the budget runs out (Date.now() time): it counts from the call, not from the worker's start. */
  readonly deadlineAt: number;
}

/** Where a job stands: `checking` until the spec is checked, then the fuzzer's own progress. */
export type FuzzJobProgress =
  | { readonly kind: "progress"; readonly phase: "checking" }
  | ({ readonly kind: "progress"; readonly phase: "fuzzing" } & FuzzProgress);

export type FromFuzzJob = FuzzJobProgress | { readonly kind: "done"; readonly response: string };

export async function runFuzzJob(
  request: FuzzJobRequest,
  post: (message: FromFuzzJob) => void,
): Promise<void> {
  post({ kind: "progress", phase: "checking" });
  const response = await fuzzResponse(request, (p) => post({ kind: "progress", phase: "fuzzing", ...p }));
  post({ kind: "done", response: encodeWire(response) });
}

async function fuzzResponse(
  request: FuzzJobRequest,
  onProgress: (p: FuzzProgress) => void,
): Promise<Response> {
  try {
    // The budget counts from the call: what the check takes of it is not left for exploring.
    const { check, report } = await fuzzSpec(request.spec, {
      seed: request.seed,
      runs: request.runs,
      deadlineAt: request.deadlineAt,
      onProgress,
      ...(request.flow === null ? {} : { flow: request.flow }),
    });
    if (report === null) {
      return {
        status: "error",
        error_type: "invalid_spec",
        message: `The spec has ${check.errors.length} error(s): fix them first (stratum_validate lists them).`,
        errors: check.errors as unknown as Wire,
      };
    }
    const errors = report.findings.filter((f) => f.severity === "error").length;
    // Flow names are user text: a Map keeps them as written, in the report's order.
    const soundness = new Map<string, Wire>(
      Object.entries(report.soundness).map(([name, s]) => [name, s as unknown as Wire]),
    );
    return {
      status: "fuzzed",
      seed: report.seed,
      runs: report.runs,
      paths: report.paths,
      exhaustive: report.exhaustive,
      stopped_by_deadline: report.stoppedByDeadline,
      not_explored: report.notExplored,
      errors,
      warnings: report.findings.length - errors,
      soundness,
      // Property names are user text too.
      properties: new Map<string, Wire>(
        Object.entries(report.properties).map(([name, p]) => [name, p as unknown as Wire]),
      ),
      findings: report.findings.map((f) => findingJson(f, f)) as unknown as Wire,
    };
  } catch (e) {
    if (e instanceof UnknownFlowError)
      return { status: "error", error_type: "flow_not_found", message: e.message };
    throw e;
  }
}
