// The file `fuzz --save DIR` writes for each finding that has a counterexample, and `replay` reads:
// the finding (code, place, message) and the tool calls that show it, exactly as the fuzzer
// recorded them (flow ids are placeholders `<flow-1>` …; the first call is stratum_plan with the
// spec text, so the file replays on its own, whatever became of the spec file since).
import type { Severity } from "../../checker/index";
import type { Counterexample, FuzzFinding, ToolName, WireCall } from "../../fuzzer/index";
import { argumentsLimitProblem } from "../../interpreter/index";

export interface CounterexampleFile {
  readonly version: 1;
  /** The spec's path as `fuzz` showed it. */
  readonly file: string;
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly flow: string;
  readonly step: string | null;
  readonly line: number;
  readonly column: number;
  readonly seed: number;
  readonly input: Record<string, unknown>;
  readonly calls: readonly WireCall[];
}

export function counterexampleFile(file: string, f: FuzzFinding, c: Counterexample): CounterexampleFile {
  return {
    version: 1,
    file,
    code: f.code,
    severity: f.severity,
    message: f.message,
    flow: f.flow,
    step: f.step,
    line: f.line,
    column: f.column,
    seed: c.seed,
    input: c.input,
    calls: c.calls,
  };
}

export function counterexampleText(c: CounterexampleFile): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}

/** The tools a recording may call (the fuzzer's ToolName, checked to be complete by the type). */
const TOOLS: Readonly<Record<ToolName, true>> = {
  stratum_plan: true,
  stratum_step_done: true,
  stratum_gate_resolve: true,
  stratum_skip_step: true,
  stratum_iteration_start: true,
  stratum_iteration_report: true,
  stratum_iteration_abort: true,
  stratum_parallel_done: true,
  stratum_judge: true,
  stratum_resume: true,
  stratum_audit: true,
};

export type Parsed =
  | { readonly ok: true; readonly value: CounterexampleFile }
  | { readonly ok: false; readonly reason: string };

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isTool(v: unknown): v is ToolName {
  return typeof v === "string" && Object.hasOwn(TOOLS, v);
}

/** Reads the text of a saved counterexample; the reason says what is wrong in a few words. */
export function parseCounterexampleFile(text: string): Parsed {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ");
    return { ok: false, reason: `not JSON (${why})` };
  }
  if (!isObject(v)) return { ok: false, reason: "not a JSON object" };
  const bad = (reason: string): Parsed => ({ ok: false, reason });
  if (v.version !== 1) return bad(`"version" must be 1`);
  for (const key of ["file", "code", "message", "flow"] as const) {
    if (typeof v[key] !== "string") return bad(`"${key}" must be a string`);
  }
  if (v.severity !== "error" && v.severity !== "warning" && v.severity !== "info")
    return bad(`"severity" must be "error", "warning" or "info"`);
  if (v.step !== null && typeof v.step !== "string") return bad(`"step" must be a string or null`);
  for (const key of ["line", "column", "seed"] as const) {
    if (!Number.isInteger(v[key])) return bad(`"${key}" must be a whole number`);
  }
  if (!isObject(v.input)) return bad(`"input" must be an object`);
  const calls = v.calls;
  if (!Array.isArray(calls) || calls.length === 0) return bad(`"calls" must be a non-empty list`);
  for (const [i, call] of calls.entries()) {
    if (!isObject(call) || !isTool(call.tool) || !isObject(call.arguments))
      return bad(`"calls"[${i}] must be {"tool": <a stratum_* flow tool>, "arguments": {…}}`);
  }
  // Replayed arguments are converted recursively: past the tools' limits they are refused here.
  const tooLarge = argumentsLimitProblem([
    ['"input"', v.input],
    ...calls.flatMap((call, i) =>
      Object.entries(call.arguments as Json).map(([k, x]): [string, unknown] => [
        `"calls"[${i}].arguments.${k}`,
        x,
      ]),
    ),
  ]);
  if (tooLarge !== null) return bad(tooLarge);
  const plan = calls[0] as WireCall;
  if (plan.tool !== "stratum_plan" || typeof plan.arguments.spec !== "string")
    return bad(`the first call must be stratum_plan with the spec text`);
  return { ok: true, value: v as unknown as CounterexampleFile };
}
