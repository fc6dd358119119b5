// The smallest witness of a finding: its recorded calls are replayed on a fresh engine with calls
// left out (chunks first, then one at a time: what a loop the finding does not need adds goes) and
// with values made simpler (strings toward '' and 'a', numbers toward 0 and 1, lists toward [] and
// one element), keeping every change after which the finding still shows. The work is bounded by
// a number of replays, not by time, so the same seed gives the same witness on any machine. A
// candidate shares its calls up to the first changed one with the witness: its replay continues
// from the engine's state there (replay-prefix.ts) instead of from the plan.

import { FUZZ_NO_COMPLETION } from "../../checker/index";
import type { SpecCache } from "../../interpreter/index";
import type { FileAccess } from "../../stdlib/index";
import { attributable, identityOf, type Observation } from "../run/observation";
import { Observer } from "../run/observer";
import type { Cut } from "../run/properties";
import { type EngineFork, type Plain, Session, type Transport, type WireCall } from "../run/session";
import type { FuzzTarget } from "../target";
import { engineTransport } from "../transport";
import type { Shapes } from "../values/shapes";
import { PrefixDiverged, prefixReplay, type ReplayRecord } from "./replay-prefix";

/** Replays per finding, at most. */
const MAX_REPLAYS = 160;
/** The arguments whose values an agent or a caller chose (the rest name flows, steps and outcomes). */
const VALUE_KEYS: ReadonlySet<string> = new Set(["inputs", "result", "task_results"]);

export interface MinimizeContext {
  readonly target: FuzzTarget;
  readonly shapes: Shapes;
  readonly files: FileAccess | null;
  /** The checked spec, shared by every replay's engine (none: each replay checks it again). */
  readonly specs?: SpecCache;
  /** The time budget has run out: no more replays (the witness so far is kept). */
  readonly expired?: () => boolean;
  /** Whether replays continue from the witness's engine state at their first changed call (the default) or all start from the plan. */
  readonly sharePrefixes?: boolean;
}

export interface Wanted {
  readonly identity: string;
  readonly code: string;
  readonly flow: string;
  readonly step: string | null;
  /**
   * A property broken because the fuzzer cut the run: where it stopped a loop (a candidate shows
   * it if the replay stops at a loop too), or at its call limit (only a candidate as long as the
   * witness, the limit, is cut there: values are simplified, no call is left out).
   */
  readonly cut?: Cut;
}

export interface Minimized {
  readonly calls: readonly WireCall[];
  /** The finding as the last replay of these calls showed it (its message may name their values). */
  readonly observation: Observation | null;
  /** Calls the engine answered from a witness's record instead of again (replays sharing its prefix). */
  readonly sharedCalls: number;
}

/**
 * The shortest, simplest calls that still show the finding (the calls up to the one that shows
 * it), or `calls` unchanged when nothing simpler does.
 */
export async function minimizeWitness(
  ctx: MinimizeContext,
  calls: readonly WireCall[],
  wanted: Wanted,
): Promise<Minimized> {
  let replays = 0;
  let sharedCalls = 0;
  const engine = ctx.sharePrefixes === false ? null : forkingEngine(ctx);
  const replay: Replay = async (candidate, witness) => {
    if (replays >= MAX_REPLAYS || ctx.expired?.() === true) return null;
    replays++;
    if (engine === null)
      return showingCall(ctx, engineTransport(ctx.files, ctx.specs), candidate, wanted, calls.length, null);
    const from = witness?.record ?? null;
    try {
      const r = prefixReplay(engine, candidate, from);
      const shown = await showingCall(ctx, r.transport, candidate, wanted, calls.length, r.record);
      sharedCalls += r.shared;
      return shown;
    } catch (e) {
      // The observer asked the engine what the witness's did not: replayed from the plan instead.
      if (!(e instanceof PrefixDiverged) || from === null) throw e;
      const r = prefixReplay(engine, candidate, null);
      return showingCall(ctx, r.transport, candidate, wanted, calls.length, r.record);
    }
  };
  const first = await replay(calls, null);
  if (first === null) return { calls, observation: null, sharedCalls };
  let best = await dropCalls(first, replay);
  best = await simplifyValues(ctx, best, replay);
  return { calls: best.calls, observation: best.observation, sharedCalls };
}

/** A replay that showed the finding: the calls up to the one that shows it, and what it showed. */
interface Shown {
  readonly calls: readonly WireCall[];
  readonly observation: Observation | null;
  /** Each response's `status` and `error_type`: what the interpreter made of each call. */
  readonly signature: readonly string[];
  /** What the replay sent the engine, for the replays that share its prefix (none: not shared). */
  readonly record: ReplayRecord | null;
}

/** Replays `calls`, continuing from the witness's engine state where they share its calls. */
type Replay = (calls: readonly WireCall[], witness: Shown | null) => Promise<Shown | null>;

/** The one engine of a minimization's replays, when its transport can fork. */
function forkingEngine(ctx: MinimizeContext): (Transport & { readonly fork: () => EngineFork }) | null {
  const t = engineTransport(ctx.files, ctx.specs);
  const fork = t.fork;
  return fork === undefined ? null : Object.assign(t, { fork });
}

/**
 * Replays `calls` through `transport` (a fresh run): the calls up to the one whose response shows
 * the finding (`limit`: the length of the witness being minimized, where a call-limit cut happened).
 */
async function showingCall(
  ctx: MinimizeContext,
  transport: Transport,
  calls: readonly WireCall[],
  wanted: Wanted,
  limit: number,
  record: ReplayRecord | null,
): Promise<Shown | null> {
  const session = new Session(transport);
  const observer = new Observer(ctx.target.spec, ctx.shapes, session);
  const signature: string[] = [];
  const shown = (at: number, observation: Observation | null): Shown => ({
    calls: calls.slice(0, at + 1),
    observation,
    signature: signature.slice(0, at + 1),
    record,
  });
  for (const [i, call] of calls.entries()) {
    let response: Plain;
    try {
      response = await session.replay(call);
    } catch (e) {
      if (e instanceof PrefixDiverged) throw e;
      return null; // a call names a flow no response named: not a run
    }
    signature.push(`${String(response.status)}|${String(response.error_type ?? "")}`);
    await observer.observe(session.calls - 1);
    if (wanted.code === FUZZ_NO_COMPLETION.code) {
      const r = observer.revisit;
      if (r !== null && r.flow === wanted.flow && r.cause.step === wanted.step) return shown(r.call, null);
    } else {
      if (cutHere(wanted, observer, i, limit)) observer.cutRun(wanted.cut!);
      const o = observer.observations.find((x) => attributable(x) && identityOf(x) === wanted.identity);
      if (o !== undefined) return shown(o.call, o);
    }
    if (response.status === "error" && response.error_type === "invalid_arguments") return null;
  }
  return null;
}

/** Whether a replay that reached call `i` is cut there, as the wanted breach's run was. */
function cutHere(wanted: Wanted, observer: Observer, i: number, limit: number): boolean {
  if (wanted.cut === "loop") return observer.stopped === "loop";
  if (wanted.cut === "truncated") return observer.stopped === null && i === limit - 1;
  return false;
}

/** Leaves out chunks of calls (never the plan), halving the chunk size down to one call. */
async function dropCalls(first: Shown, replay: Replay): Promise<Shown> {
  let best = first;
  for (let size = Math.floor((best.calls.length - 1) / 2); size >= 1; size = Math.floor(size / 2)) {
    for (let from = 1; from + size <= best.calls.length; ) {
      const shorter = await replay([...best.calls.slice(0, from), ...best.calls.slice(from + size)], best);
      if (shorter !== null && shorter.calls.length < best.calls.length) best = shorter;
      else from++;
    }
  }
  return best;
}

/**
 * Simpler values, one at a time, wherever an agent or the caller chose one. A change counts only
 * if the interpreter answers every call as before (a result it accepted stays accepted, a rejected
 * one is rejected at the same stage), and a flow input keeps to its declared `values`.
 */
async function simplifyValues(ctx: MinimizeContext, first: Shown, replay: Replay): Promise<Shown> {
  let best = first;
  for (let i = 0; i < best.calls.length; i++) {
    for (const key of VALUE_KEYS) {
      const original = best.calls[i]!.arguments[key];
      if (original === undefined) continue;
      for (const path of leafPaths(original)) {
        if (key === "inputs" && enumerated(ctx, best.calls[i]!, path)) continue;
        for (const simpler of simplerValues(valueAt(best.calls[i]!.arguments[key], path))) {
          const call = best.calls[i]!;
          const args = { ...call.arguments, [key]: replaced(call.arguments[key], path, simpler) };
          const candidate = [
            ...best.calls.slice(0, i),
            { ...call, arguments: args },
            ...best.calls.slice(i + 1),
          ];
          const shown = await replay(candidate, best);
          if (shown !== null && samePath(shown.signature, best.signature)) {
            best = shown;
            break;
          }
        }
        if (i >= best.calls.length) return best;
      }
    }
  }
  return best;
}

/** The same answers, call by call (the simpler run may show the finding earlier). */
function samePath(candidate: readonly string[], best: readonly string[]): boolean {
  return candidate.length <= best.length && candidate.every((s, i) => s === best[i]);
}

/** Whether a plan input at `path` is declared with `values` (a choice, not data to simplify). */
function enumerated(ctx: MinimizeContext, plan: WireCall, path: Path): boolean {
  const flow = ctx.target.spec.flows.get(String(plan.arguments.flow));
  const decl = flow?.input[String(path[0])];
  return decl !== null && typeof decl === "object" && !Array.isArray(decl) && Array.isArray(decl.values);
}

type Path = readonly (string | number)[];

/** Every value's path below `v`, containers before their members. */
function leafPaths(v: unknown, at: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(v)) {
    out.push(at);
    v.forEach((x, i) => {
      out.push(...leafPaths(x, [...at, i]));
    });
  } else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) out.push(...leafPaths(x, [...at, k]));
  } else if (at.length > 0 || typeof v === "string" || typeof v === "number") {
    out.push(at);
  }
  return out;
}

function valueAt(v: unknown, path: Path): unknown {
  let x = v;
  for (const k of path) x = (x as Record<string | number, unknown> | null)?.[k];
  return x;
}

function replaced(v: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? replaced(x, rest, value) : x));
  if (v !== null && typeof v === "object") {
    return { ...(v as Plain), [head]: replaced((v as Plain)[head as string], rest, value) };
  }
  return v;
}

/** Simpler replacements of a value, simplest first (none when it is as simple as they come). */
function simplerValues(v: unknown): unknown[] {
  if (typeof v === "string") return v === "" ? [] : v === "a" ? [""] : ["", "a"];
  if (typeof v === "number") return v === 0 ? [] : v === 1 ? [0] : [0, 1];
  if (Array.isArray(v)) return v.length === 0 ? [] : v.length === 1 ? [[]] : [[], [v[0]]];
  return [];
}
