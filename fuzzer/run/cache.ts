// The result cache as the fuzzer plays it (docs/reference/runtime.md §25.4): which steps the engine
// may serve from the cache, whether a flow has one (then a run that completed sometimes plans the
// flow again with the same inputs, so the second run meets its hits), and what a hit may serve.
import { type CheckedSpec, type FlowIR, reachableFlows, type StepIR } from "../../checker/index";

/** Whether the engine may serve `step` from the cache: a compute function step with `cache` on it or its function. */
export function isCached(spec: CheckedSpec, step: StepIR): boolean {
  if (step.function === null) return false;
  const fn = spec.functions.get(step.function);
  return fn !== undefined && fn.mode === "compute" && (step.cache || fn.cache);
}

/** Whether some step of `flow` may be served from the cache. */
function hasCachedStep(spec: CheckedSpec, flow: FlowIR): boolean {
  return flow.steps.some((s) => isCached(spec, s));
}

const REACHES_CACHED = new WeakMap<FlowIR, boolean>();

/**
 * Whether a run of `root` can meet a cached step: in it or in a sub-flow it reaches (no other
 * flow runs). Asked after every completed run, so it is worked out once per flow.
 */
export function reachesCachedStep(spec: CheckedSpec, root: FlowIR): boolean {
  let reaches = REACHES_CACHED.get(root);
  if (reaches === undefined) {
    reaches = reachableFlows(spec, root).some((f) => hasCachedStep(spec, f));
    REACHES_CACHED.set(root, reaches);
  }
  return reaches;
}

/** JSON with sorted keys: the same value gives the same text whatever its keys' order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

const OUTPUT_PATH = /^\$\.steps\.([A-Za-z_][\w-]*)\.output((?:\.[A-Za-z_]\w*)*)$/;

/** A step input read as `$.steps.S.output` or `$.steps.S.output.a.b`: S and the field path; else null. */
export function outputPath(
  raw: string,
): { readonly step: string; readonly fields: readonly string[] } | null {
  const m = OUTPUT_PATH.exec(raw.trim());
  if (m === null) return null;
  return { step: m[1]!, fields: m[2] === "" ? [] : m[2]!.slice(1).split(".") };
}

/** The value at `fields` of `v`, or undefined where a field is missing. */
export function at(v: unknown, fields: readonly string[]): unknown {
  let cur = v;
  for (const f of fields) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur) || !Object.hasOwn(cur, f))
      return undefined;
    cur = (cur as Record<string, unknown>)[f];
  }
  return cur;
}
