// Data the properties single out, tried on every seed. A property over a step's output or an
// input (`$.steps.a.output.n == 0`, `$.input.limit < 0`) is broken by particular values, which
// random runs may or may not draw. Each probe is one run that follows the first exhaustive path
// (every step done right, the first gate outcome) with one field of one step's result, or one
// input, set to a value the property compares it with or a neighbour of it: the same runs whatever
// the seed, so such a violation is found on every seed.
import type { FlowIR, JsonValue, PropertyIR, StepIR } from "../../checker/index";
import type { Expr } from "../../grammar/index";
import { ProbeDecider } from "../run/decider";
import { driveRun, poolKey, type RunSetup } from "../run/driver";
import { attributable, type Coverage, emptyCoverage, identityOf, mergeCoverage } from "../run/observation";
import { ExprHints, type FieldHint } from "../values/expr-hints";
import type { Sighting } from "./random";

/** One field of one step's result set to one value (the step's "do it right" result otherwise). */
interface ResultAim {
  readonly step: string;
  readonly path: readonly string[];
  readonly value: JsonValue;
}

type Probe =
  | { readonly kind: "result"; readonly aim: ResultAim }
  | { readonly kind: "input"; readonly name: string; readonly value: JsonValue };

/** Probes per flow: each is one short run. */
const MAX_PROBES = 48;

type Plain = Record<string, unknown>;

function isPlain(v: unknown): v is Plain {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * The expression with the `$` paths `scope` picks (`$.steps.<id>.output.a.b`, `$.input.<n>.a`)
 * turned into `result.a.b` / `result.<n>.a`, so that the ensure hints read what it tests.
 */
function asResult(e: Expr, pick: (p: Extract<Expr, { kind: "Path" }>) => string[] | null): Expr {
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (!isPlain(node)) return node;
    if (node.kind === "Path") {
      const keys = pick(node as unknown as Extract<Expr, { kind: "Path" }>);
      if (keys !== null) {
        const span = { start: node.start as number, end: node.end as number };
        let out: Expr = { kind: "Name", id: "result", ...span };
        for (const attr of keys) out = { kind: "Attribute", value: out, attr, attrSpan: span, ...span };
        return out;
      }
    }
    const out: Plain = {};
    for (const [k, v] of Object.entries(node)) out[k] = copy(v);
    return out;
  };
  return copy(e) as Expr;
}

function integersNear(n: number): number[] {
  return [Math.floor(n) - 1, Math.floor(n), Math.ceil(n), Math.ceil(n) + 1].filter(Number.isSafeInteger);
}

/** The values to try for a field the property compares: the literals and their neighbours. */
function tries(hint: FieldHint, kind: "int" | "float" | "other"): JsonValue[] {
  const out: JsonValue[] = [];
  for (const v of hint.values) {
    if (typeof v === "number" && kind === "int") out.push(...integersNear(v));
    else if (typeof v === "number" && kind === "float") out.push(v, ...integersNear(v), v - 0.5, v + 0.5);
    else if (typeof v === "boolean") out.push(v, !v);
    else out.push(v);
  }
  const seen = new Set<string>();
  return out.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function numberKind(t: FieldHint["type"]): "int" | "float" | "other" {
  const members = t.k === "union" ? t.members : [t];
  if (members.some((m) => m.k === "float")) return "float";
  return members.some((m) => m.k === "int") ? "int" : "other";
}

function declaredKind(decl: unknown): "int" | "float" | "other" {
  const type = isPlain(decl) ? decl.type : undefined;
  return type === "integer" ? "int" : type === "number" ? "float" : "other";
}

/** Keys of an input declaration that leave every value of its type legal. */
const PLAIN_KEYS = new Set(["type", "required", "description", "default"]);

/**
 * Whether the input's probes are worth a run: a number or string with nothing else that
 * constrains it (a `values` input is enumerated in full already; a bound or pattern could make the
 * probed value one the plan rejects).
 */
function probedInput(decl: unknown): boolean {
  if (!isPlain(decl)) return false;
  const type = decl.type;
  if (type !== "integer" && type !== "number" && type !== "string") return false;
  return Object.keys(decl).every((k) => PLAIN_KEYS.has(k));
}

function expressions(p: PropertyIR): Expr[] {
  return [p.condition.ast, ...(p.to === null ? [] : [p.to.ast])];
}

/** The probes of a flow's properties: for each step output and input they compare, each value to try. */
function propertyProbes(flow: FlowIR, properties: readonly PropertyIR[]): Probe[] {
  const out: Probe[] = [];
  const stepsRead = (step: StepIR) => (p: Extract<Expr, { kind: "Path" }>) =>
    p.ref?.scope === "steps" && p.ref.name.name === step.id ? p.ref.fields.map((f) => f.name) : null;
  for (const step of flow.steps) {
    if (step.kind !== "function" && step.kind !== "inline") continue;
    const hints = new ExprHints(step.resultType);
    for (const p of properties) for (const e of expressions(p)) hints.read(asResult(e, stepsRead(step)));
    for (const h of hints.all()) {
      if (h.path.length === 0 || h.path.some((k) => k.startsWith("\u0000"))) continue;
      for (const value of tries(h, numberKind(h.type)))
        out.push({ kind: "result", aim: { step: step.id, path: h.path, value } });
    }
  }
  const inputs = new ExprHints({ k: "any" });
  const inputRead = (p: Extract<Expr, { kind: "Path" }>) =>
    p.ref?.scope === "input" ? [p.ref.name.name, ...p.ref.fields.map((f) => f.name)] : null;
  for (const p of properties) for (const e of expressions(p)) inputs.read(asResult(e, inputRead));
  for (const h of inputs.all()) {
    const name = h.path[0];
    if (h.path.length !== 1 || name === undefined || !probedInput(flow.input[name])) continue;
    const kind = declaredKind(flow.input[name]);
    for (const value of tries(h, kind))
      if (typeof value === (kind === "other" ? "string" : "number")) out.push({ kind: "input", name, value });
  }
  return out.slice(0, MAX_PROBES);
}

/** Runs each probe of `flow`'s properties from `input` (the first input combination); stops when `expired`. */
export async function exploreProbes(
  setup: RunSetup,
  flow: FlowIR,
  properties: readonly PropertyIR[],
  input: Record<string, unknown>,
  expired: () => boolean,
): Promise<{
  readonly runs: number;
  readonly coverage: Coverage;
  readonly sightings: Map<string, Sighting>;
}> {
  const coverage = emptyCoverage();
  const sightings = new Map<string, Sighting>();
  let runs = 0;
  for (const probe of propertyProbes(flow, properties)) {
    if (expired()) break;
    const decider =
      probe.kind === "input"
        ? new ProbeDecider({ ...input, [probe.name]: probe.value }, null)
        : new ProbeDecider(input, { ...probe.aim, pool: poolKey(flow.name, probe.aim.step) });
    const outcome = await driveRun(setup, decider);
    mergeCoverage(coverage, outcome.coverage);
    for (const o of outcome.observations.filter(attributable)) {
      const id = identityOf(o);
      const known = sightings.get(id);
      if (known === undefined || outcome.calls.length < known.outcome.calls.length)
        sightings.set(id, { observation: o, run: runs, outcome });
    }
    runs++;
  }
  return { runs, coverage, sightings };
}
