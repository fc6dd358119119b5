// Checks the spec's properties on one run (docs/guides/testing-a-spec.md "Properties"): after every
// transition of the root flow (each of its events that changes the property state) each property
// of that flow is evaluated on the state. always / never are broken by one state; eventually by a
// run that ends, or is cut at the call limit, without a state where it holds; leads_to by a `from`
// state with no `to` state at or after it when the run ends or is cut.
import type { CheckedSpec, FlowIR, PropertyIR } from "../../checker/index";
import { type CompiledExpression, compileExpression, evaluate } from "../../interpreter/index";
import { PyError, type PyValue, truthy } from "../../stdlib/index";
import { LoopWatch } from "./cut-loop";
import { RunState } from "./property-state";
import type { Exchange } from "./session";
import { inTransitionOrder } from "./transition-order";

/** Evaluation steps per property and state: a property is a small condition. */
const PROPERTY_BUDGET = 100_000;

interface Compiled {
  readonly ir: PropertyIR;
  readonly condition: CompiledExpression;
  readonly to: CompiledExpression | null;
  /** The steps whose `$.steps.<id>.output` the property reads. */
  readonly outputs: readonly string[];
  /** Whether it reads `$.flow.round` (else two states that differ only by their round are one). */
  readonly readsRound: boolean;
}

const OUTPUT_PATH = /\$\.steps\.([A-Za-z0-9_-]+)\.output\b/g;
const ROUND_PATH = /\$\.flow\.round\b/;

function outputsRead(ir: PropertyIR): string[] {
  const text = `${ir.condition.text}\n${ir.to?.text ?? ""}`;
  return [...new Set([...text.matchAll(OUTPUT_PATH)].map((m) => m[1] ?? ""))];
}

/** What a run showed about one property: the call after which it was broken, and why. */
export interface PropertyBreach {
  readonly property: PropertyIR;
  readonly call: number;
  readonly what: string;
  /** How the run was cut, when the breach is that it was (null: the run showed it by itself). */
  readonly cut: Cut | null;
}

/** How the fuzzer cut a run: at its call limit, or where it stopped a loop. */
export type Cut = "truncated" | "loop";

/** How a property's condition came out on a state: its truth, or the error it raised. */
type Outcome = { readonly holds: boolean; readonly raised: string | null };

function check(compiled: CompiledExpression, state: PyValue): Outcome {
  try {
    const v = evaluate(compiled, new Map(), {
      paths: { input: () => undefined, stepOutput: () => undefined, state },
      budget: PROPERTY_BUDGET,
    });
    return { holds: truthy(v), raised: null };
  } catch (e) {
    if (e instanceof PyError) return { holds: false, raised: `${e.kind}: ${e.message}` };
    throw e;
  }
}

const compiledCache = new WeakMap<PropertyIR, Compiled>();

function compiled(ir: PropertyIR): Compiled {
  let c = compiledCache.get(ir);
  if (c === undefined) {
    c = {
      ir,
      condition: compileExpression(ir.condition.ast),
      to: ir.to === null ? null : compileExpression(ir.to.ast),
      outputs: outputsRead(ir),
      readsRound: ROUND_PATH.test(`${ir.condition.text}\n${ir.to?.text ?? ""}`),
    };
    compiledCache.set(ir, c);
  }
  return c;
}

/** The properties of `flow`, in declaration order. */
export function propertiesOf(spec: CheckedSpec, flow: string): PropertyIR[] {
  return [...spec.properties.values()].filter((p) => p.flow === flow);
}

function where(ex: Exchange, call: number): string {
  const step = ex.call.arguments.step_id;
  return `after call ${call + 1} (${ex.call.tool}${typeof step === "string" ? ` '${step}'` : ""})`;
}

export class PropertyMonitor {
  private readonly state: RunState;
  private readonly properties: readonly Compiled[];
  /** eventually: satisfied on this run. */
  private readonly satisfied = new Set<string>();
  /** leads_to: the first call whose state opened an obligation no later state has met yet. */
  private readonly open = new Map<string, number>();
  private readonly broken = new Set<string>();
  /**
   * Properties left unjudged on some state of this run: they read an output the events did not carry
   * there, so neither a breach nor a proof may rest on the run.
   */
  readonly undecided = new Set<string>();
  /** The root flow's state after each call that changed it: what looped, if the run is cut. */
  private readonly loop = new LoopWatch();

  constructor(
    flow: FlowIR,
    properties: readonly PropertyIR[],
    private readonly rootId: string,
    input: unknown,
  ) {
    this.state = new RunState(flow);
    this.state.setInput(input);
    this.properties = properties.map(compiled);
  }

  /** The breaches the exchange at `call` shows (its events of the root flow, one state each). */
  observe(ex: Exchange, call: number): PropertyBreach[] {
    const out: PropertyBreach[] = [];
    let changed = false;
    const own = (ex.events ?? []).filter((e) => e.flow_id === this.rootId);
    for (const e of inTransitionOrder(own)) {
      if (!this.state.apply(e)) continue;
      changed = true;
      if (e.type === "step_dispatched") this.loop.noteDispatch(e.step_id);
      out.push(...this.evaluate(ex, call));
      if (this.state.finished)
        out.push(
          ...this.ended(`the flow ended (${e.type === "flow_finished" ? e.status : "finished"})`, call, null),
        );
    }
    if (changed) this.loop.noteCall(ex, call, this.state.at());
    return out;
  }

  /**
   * The run was cut before its flow finished (the fuzzer's call limit, or a loop it stopped): each
   * breach names what looped (cut-loop.ts).
   */
  cut(call: number, why: string, how: Cut): PropertyBreach[] {
    return this.state.finished
      ? []
      : this.ended(`the run was cut ${why}, which counts as not satisfying it`, call, how);
  }

  private evaluate(ex: Exchange, call: number): PropertyBreach[] {
    const state = this.state.snapshot();
    const out: PropertyBreach[] = [];
    for (const p of this.properties) {
      const name = p.ir.name;
      if (this.broken.has(name)) continue;
      if (p.outputs.some((id) => this.state.outputUnseen(id))) {
        this.undecided.add(name);
        continue;
      }
      const c = check(p.condition, state);
      // A condition that raises cannot be judged on a state the run reached: that breaks the
      // property whatever its kind (it never holds silently); the finding says what it raised.
      if (c.raised !== null) {
        const which = p.ir.kind === "leads_to" ? "'from'" : "the condition";
        out.push(this.breach(p.ir, call, `${where(ex, call)} ${which} raised ${c.raised}`));
        continue;
      }
      switch (p.ir.kind) {
        case "always":
          if (!c.holds) out.push(this.breach(p.ir, call, `${where(ex, call)} the condition is false`));
          break;
        case "never":
          if (c.holds) out.push(this.breach(p.ir, call, `${where(ex, call)} the condition holds`));
          break;
        case "eventually":
          if (c.holds) this.satisfied.add(name);
          break;
        case "leads_to": {
          // The same state meets its own obligation: `to` is read after `from`.
          if (c.holds && !this.open.has(name)) this.open.set(name, call);
          if (!this.open.has(name) || p.to === null) break;
          {
            const to = check(p.to, state);
            if (to.raised !== null)
              out.push(this.breach(p.ir, call, `${where(ex, call)} 'to' raised ${to.raised}`));
            else if (to.holds) this.open.delete(name);
          }
          break;
        }
      }
    }
    return out;
  }

  private ended(how: string, call: number, cut: Cut | null): PropertyBreach[] {
    const out: PropertyBreach[] = [];
    for (const p of this.properties) {
      const name = p.ir.name;
      // A skipped state may have been the one that satisfied it.
      if (this.broken.has(name) || this.undecided.has(name)) continue;
      const looped = cut === null ? "" : this.loop.describe(p.readsRound);
      if (p.ir.kind === "eventually" && !this.satisfied.has(name)) {
        out.push(this.breach(p.ir, call, `${how} without a state where the condition holds${looped}`, cut));
      }
      const opened = this.open.get(name);
      if (p.ir.kind === "leads_to" && opened !== undefined) {
        out.push(
          this.breach(
            p.ir,
            call,
            `'from' held after call ${opened + 1}, and ${how} with no later state where 'to' holds${looped}`,
            cut,
          ),
        );
      }
    }
    return out;
  }

  private breach(property: PropertyIR, call: number, what: string, cut: Cut | null = null): PropertyBreach {
    this.broken.add(property.name);
    return { property, call, what, cut };
  }
}
