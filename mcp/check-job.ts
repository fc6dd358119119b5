// One check job as a worker runs it (worker-jobs.ts): `stratum_validate`'s answer for a spec,
// computed exactly as the engine computes it in the server's thread, and posted as JSON text
// (encodeWire) so that it crosses the thread boundary kind for kind.
import { encodeWire, validateSpec } from "../interpreter/index";
import type { FromFuzzJob } from "./fuzz-job";

export interface CheckJobRequest {
  readonly kind: "check";
  readonly spec: string;
}

export async function runCheckJob(
  request: CheckJobRequest,
  post: (message: FromFuzzJob) => void,
): Promise<void> {
  post({ kind: "done", response: encodeWire(validateSpec({ spec: request.spec })) });
}
