// Tool calls as the MCP wire has them, recorded for counterexamples. A transport sends one call
// (tool name + JSON arguments) and answers the response as plain JSON data: in process through the
// programmatic API, or through an MCP client (cli/replay). Flow ids differ between engines, so the
// recording names them by placeholders `<flow-1>`, `<flow-2>`, … in order of first appearance, and
// a replay maps each placeholder to the id its own server handed out at the same point.
import type { FlowEvent, StratumApi } from "../../interpreter/index";
import { wireToPlain } from "../../interpreter/index";
import { fromJsonValue } from "../../stdlib/index";

export type ToolName =
  | "stratum_plan"
  | "stratum_step_done"
  | "stratum_gate_resolve"
  | "stratum_skip_step"
  | "stratum_iteration_start"
  | "stratum_iteration_report"
  | "stratum_iteration_abort"
  | "stratum_parallel_done"
  | "stratum_judge"
  | "stratum_resume"
  | "stratum_audit";

export type Plain = Record<string, unknown>;

export interface WireCall {
  readonly tool: ToolName;
  readonly arguments: Plain;
}

/**
 * A call's answer: the response, and the interpreter's events of the call (docs/reference/runtime.md
 * "Events"), or null when the transport has none (a server that does not send them).
 */
export interface Answer {
  readonly response: Plain;
  readonly events: readonly FlowEvent[] | null;
}

export type Transport = ((tool: ToolName, args: Plain) => Promise<Answer>) & {
  /**
   * Called as each run starts: forgets what earlier runs left in the engine that a run could see
   * (the result cache), so that every run, and every replay of it on a fresh engine, answers alike.
   */
  readonly newRun?: () => void;
  /**
   * The engine's state of this run's flows as it is now (its store and result cache), to be put
   * back later: exhaustive exploration continues another choice of a decision from there instead
   * of replaying the run up to it (explore/fork.ts). Absent: the transport cannot.
   */
  readonly fork?: () => EngineFork;
};

/** An engine state `Transport.fork` took; `restore` puts it back (any number of times). */
export interface EngineFork {
  restore(): void;
}

/** Where a transport over an engine in this process takes each call's events from (engine.ts EventLog). */
export interface EventSource {
  take(): FlowEvent[];
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/**
 * The in-process transport: the interpreter's programmatic API (the one the MCP server adapts);
 * `events`, the log of the engine's observer, gives each call's events (none without it).
 */
export function apiTransport(api: StratumApi, events?: EventSource): Transport {
  return async (tool, a) => {
    events?.take(); // nothing of an earlier, unanswered call
    const flow_id = str(a.flow_id);
    const step_id = str(a.step_id);
    let response: unknown;
    switch (tool) {
      case "stratum_plan":
        response = await api.plan({
          spec: str(a.spec),
          flow: str(a.flow),
          inputs: fromJsonValue(a.inputs ?? {}),
        });
        break;
      case "stratum_step_done":
        response = await api.stepDone({
          flow_id,
          step_id,
          result: fromJsonValue(a.result),
          ...(a.usage === undefined ? {} : { usage: fromJsonValue(a.usage) }),
        });
        break;
      case "stratum_gate_resolve":
        response = await api.gateResolve({
          flow_id,
          step_id,
          outcome: str(a.outcome),
          rationale: str(a.rationale),
          resolved_by: str(a.resolved_by),
        });
        break;
      case "stratum_skip_step":
        response = await api.skipStep({ flow_id, step_id, reason: str(a.reason) });
        break;
      case "stratum_iteration_start":
        response = await api.iterationStart({ flow_id, step_id });
        break;
      case "stratum_iteration_report":
        response = await api.iterationReport({ flow_id, step_id, result: fromJsonValue(a.result) });
        break;
      case "stratum_iteration_abort":
        response = await api.iterationAbort({ flow_id, step_id, reason: str(a.reason) });
        break;
      case "stratum_parallel_done":
        response = await api.parallelDone({
          flow_id,
          step_id,
          task_results: fromJsonValue(a.task_results ?? []),
          merge_status: str(a.merge_status),
        });
        break;
      case "stratum_judge":
        response = await api.judge({
          flow_id,
          step_id,
          predicates: fromJsonValue(a.predicates ?? []),
          artifacts: new Map(
            Object.entries((a.artifacts ?? {}) as Record<string, unknown>).filter(
              (e): e is [string, string] => typeof e[1] === "string",
            ),
          ),
          stakes: str(a.stakes),
          budget: fromJsonValue(a.budget ?? null),
        });
        break;
      case "stratum_resume":
        response = await api.resume({ flow_id });
        break;
      case "stratum_audit":
        response = await api.audit({ flow_id });
        break;
    }
    return { response: wireToPlain(response as never) as Plain, events: events?.take() ?? null };
  };
}

const PLACEHOLDER = /^<flow-(\d+)>$/;

/**
 * Replaces every string equal to a key of `map` (deeply). A container in which nothing is
 * replaced is answered as it is, not copied: every call is recorded, and most of a call's
 * arguments (the results) hold no flow id.
 */
function substitute(v: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof v === "string") return map.get(v) ?? v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = substitute(v[i], map);
      if (x !== v[i]) out ??= v.slice();
      if (out !== null) out[i] = x;
    }
    return out ?? v;
  }
  if (v !== null && typeof v === "object") {
    const o = v as Plain;
    const keys = Object.keys(o);
    let out: unknown[] | null = null;
    for (let i = 0; i < keys.length; i++) {
      const x = o[keys[i]!];
      const y = substitute(x, map);
      if (y !== x && out === null) out = keys.slice(0, i).map((k) => o[k]);
      out?.push(y);
    }
    return out === null ? v : Object.fromEntries(keys.map((k, i) => [k, out[i]]));
  }
  return v;
}

export interface Exchange {
  /** The call with placeholders. */
  readonly call: WireCall;
  /** The response with real ids. */
  readonly response: Plain;
  /** The call's events (null: the transport sends none). */
  readonly events: readonly FlowEvent[] | null;
}

/** A transport plus the id mapping and the record of the calls made (audits are not recorded). */
export class Session {
  private readonly toPlaceholder = new Map<string, string>();
  private readonly toReal = new Map<string, string>();
  readonly exchanges: Exchange[] = [];

  constructor(private readonly transport: Transport) {}

  /** Learns the flow ids a response mentions, in order of appearance. */
  private learn(response: Plain): void {
    for (const key of ["flow_id", "parent_flow_id", "child_flow_id"]) {
      const id = response[key];
      if (typeof id === "string" && id !== "" && !this.toPlaceholder.has(id)) {
        const placeholder = `<flow-${this.toPlaceholder.size + 1}>`;
        this.toPlaceholder.set(id, placeholder);
        this.toReal.set(placeholder, id);
      }
    }
    const child = response.child_step;
    if (child !== null && typeof child === "object" && !Array.isArray(child)) this.learn(child as Plain);
  }

  /** A call whose arguments hold real flow ids. */
  async call(tool: ToolName, args: Plain): Promise<Plain> {
    const { response, events } = await this.transport(tool, args);
    if (tool !== "stratum_audit") {
      this.learn(response);
      this.exchanges.push({
        call: { tool, arguments: substitute(args, this.toPlaceholder) as Plain },
        response,
        events,
      });
    }
    return response;
  }

  /** Whether every call so far came with its events (a replay over a server that sends none cannot judge). */
  get typed(): boolean {
    return this.exchanges.every((e) => e.events !== null);
  }

  /** A recorded call (placeholders) sent again. */
  async replay(call: WireCall): Promise<Plain> {
    for (const id of Object.values(call.arguments)) {
      if (typeof id === "string" && PLACEHOLDER.test(id) && !this.toReal.has(id)) {
        throw new Error(`the recording uses ${id} before any response named it`);
      }
    }
    return this.call(call.tool, substitute(call.arguments, this.toReal) as Plain);
  }

  /** The real id of a placeholder (or the id itself when it is not one). */
  realId(id: string): string {
    return this.toReal.get(id) ?? id;
  }

  get calls(): number {
    return this.exchanges.length;
  }

  /** The recorded calls (placeholders). */
  recorded(): WireCall[] {
    return this.exchanges.map((e) => e.call);
  }
}
