// One flow driven by random requests, with the invariants checked after every call (see
// flow-properties.test.ts for the list). A broken invariant throws an Error naming the request and
// what was seen, which fast-check reports with the shrunk counterexample.
import { isDeepStrictEqual } from "node:util";
import type { FlowIR } from "../../../checker/ir/types";
import type { FlowState } from "../../../interpreter/base/flow-state";
import { decodeFlowState, encodeFlowState } from "../../../interpreter/store/codec";
import { decodeStoredFlow } from "../../../interpreter/store/stored-state";
import { wireToPlain } from "../../../interpreter/wire/encode";
import type { Response } from "../../../interpreter/wire/wire";
import { fromJsonValue } from "../../../stdlib/values/json";
import { normaliseResponse } from "../conformance/normalise";
import type { TestApi } from "../support/make-test-api";
import { type Request, type StepRef, send, UNKNOWN_FLOW_ID } from "./requests";
import type { ValidSpec } from "./spec-arbitrary";

/** Error responses after which the flow is still persisted (docs/reference/runtime.md §4.5, docs/reference/runtime.md §6.1); every other one changes nothing. */
const PERSISTING_ERRORS: ReadonlySet<string> = new Set(["retries_exhausted", "max_rounds_exceeded"]);

type Plain = Record<string, unknown>;

function isRecord(v: unknown): v is Plain {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  return (
    JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x))?.slice(0, 1200) ??
    "undefined"
  );
}

export class FlowSession {
  flowId = "";
  private readonly flow: FlowIR;
  private revision = 0;
  /** Steps that were exhausted at least once: later reports may push their attempts past the limit (docs/reference/runtime.md §4.5). */
  private readonly exhausted = new Set<string>();
  /**
   * Whether attempts can be bounded by the limit at all: a gate's named on_approve / on_kill route
   * back to an earlier step re-enters it without clearing its attempts (docs/reference/runtime.md §5, as the reference), so
   * it may then be reported once more than its limit.
   */
  private readonly countBounded: boolean;
  /** Label → the audit seen right before the commit that stored it. */
  private readonly snapshots = new Map<string, unknown>();
  readonly log: string[] = [];
  /** Successful reverts checked (for the coverage check of the test). */
  reverts = 0;

  constructor(
    private readonly harness: TestApi,
    private readonly spec: ValidSpec,
  ) {
    const flow = spec.ir.flows.get("main");
    if (!flow) throw new Error("generated spec has no flow 'main'");
    this.flow = flow;
    const index = (id: string | null) =>
      id === null ? Number.POSITIVE_INFINITY : (flow.stepById.get(id)?.index ?? 0);
    this.countBounded = flow.steps.every((s) => index(s.onApprove) > s.index && index(s.onKill) > s.index);
  }

  private fail(what: string, detail: unknown): never {
    throw new Error(
      `${what}\n  detail: ${show(detail)}\n  calls:\n    ${this.log.join("\n    ")}\n  spec:\n${this.spec.text}`,
    );
  }

  async plan(flag: boolean): Promise<Plain> {
    const response = wireToPlain(
      await this.harness.api.plan({ spec: this.spec.text, flow: "main", inputs: fromJsonValue({ flag }) }),
    );
    this.log.push(`plan(flag=${flag}) → ${show(response).slice(0, 200)}`);
    if (!isRecord(response) || typeof response.flow_id !== "string")
      this.fail("plan returned no flow id", response);
    this.flowId = response.flow_id;
    await this.checkAfter("plan", response);
    return response;
  }

  /** The stored state; `text` is everything stored (snapshot and journal), to notice any write. */
  private async stored(): Promise<{ state: FlowState; text: string; snapshot: string }> {
    const stored = await this.harness.store.read(this.flowId);
    if (stored === null) this.fail("the flow is not in the store", this.flowId);
    const decoded = decodeStoredFlow(stored);
    if (!decoded.ok) this.fail(`the stored flow does not decode: ${decoded.reason}`, stored.text);
    return { state: decoded.state, text: [stored.text, ...stored.deltas].join("\n"), snapshot: stored.text };
  }

  private stepId(state: FlowState, ref: StepRef): string {
    const steps = this.flow.steps;
    if (ref === "unknown") return "no_such_step";
    if (ref === "current") return steps[state.current_idx]?.id ?? steps[0]!.id;
    return steps[ref % steps.length]!.id;
  }

  private async audit(api = this.harness.api): Promise<unknown> {
    return normaliseResponse(wireToPlain(await api.audit({ flow_id: this.flowId })));
  }

  async apply(r: Request): Promise<void> {
    if (r.op === "restart") {
      this.harness.restart();
      this.log.push("restart");
      return;
    }
    if (r.op === "advance") {
      this.harness.clock.advance(r.seconds * 1000);
      this.log.push(`advance ${r.seconds}s`);
      return;
    }
    const before = await this.stored();
    const beforeCommit = r.op === "commit" ? await this.audit() : undefined;
    const atGate = this.flow.steps[before.state.current_idx]?.kind === "gate";
    const raw: Response = await send(
      this.harness.api,
      this.flowId,
      r,
      (ref) => this.stepId(before.state, ref),
      atGate,
    );
    const response = wireToPlain(raw);
    this.log.push(`${show(r)} → ${show(response).slice(0, 300)}`);
    if (!isRecord(response)) this.fail("a response that is not an object", response);

    if (r.op === "unknown_flow") {
      const expected = {
        status: "error",
        error_type: "flow_not_found",
        message: `No active flow with id '${UNKNOWN_FLOW_ID}'`,
      };
      if (!isDeepStrictEqual({ ...response }, expected))
        this.fail("unknown flow id: not flow_not_found", response);
    }
    if (response.status === "error" && !PERSISTING_ERRORS.has(String(response.error_type))) {
      const after = await this.stored();
      if (after.text !== before.text)
        this.fail(`error ${String(response.error_type)} changed the stored flow`, response);
    }
    if (
      (r.op === "audit" || (r.op === "check_timeouts" && response.status === "no_timeout")) &&
      (await this.stored()).text !== before.text
    ) {
      this.fail(`read-only ${r.op} wrote the flow`, response);
    }
    if (r.op === "step_done") await this.checkAttemptLimit(this.stepId(before.state, r.step), response);
    if (r.op === "proceed" && !atGate)
      await this.checkAttemptLimit(this.stepId(before.state, "current"), response);
    if (r.op === "commit" && response.status === "committed")
      this.snapshots.set(r.label.trim(), beforeCommit);
    if (r.op === "revert" && response.status !== "error") {
      const expected = this.snapshots.get(r.label.trim());
      const now = await this.audit();
      if (!isDeepStrictEqual(now, expected))
        this.fail(`revert to '${r.label}' did not restore the committed audit`, { expected, now });
      this.reverts++;
    }
    await this.checkAfter(r.op, response);
  }

  /**
   * The attempt limit as each report applies it (docs/reference/runtime.md §4.4, docs/reference/runtime.md §4.5): a retry only while attempts remain
   * (and `retries_remaining` says how many), exhaustion only once they are used up.
   */
  private async checkAttemptLimit(stepId: string, response: Plain): Promise<void> {
    const step = this.flow.stepById.get(stepId);
    if (!step) return;
    const attempts = (await this.stored()).state.attempts.get(stepId) ?? 0;
    const retry = response.status === "ensure_failed" || response.status === "schema_failed";
    const exhausted = response.error_type === "retries_exhausted" || response.routed_from === stepId;
    if (retry && attempts >= step.retries)
      this.fail(`retry of '${stepId}' at attempt ${attempts} of ${step.retries}`, response);
    if (retry && response.step_id === stepId && response.retries_remaining !== step.retries - attempts) {
      this.fail(`retries_remaining of '${stepId}' is not ${step.retries} - ${attempts}`, response);
    }
    if (exhausted && attempts < step.retries)
      this.fail(`'${stepId}' exhausted at attempt ${attempts} of ${step.retries}`, response);
    if (exhausted) this.exhausted.add(stepId);
  }

  /** The invariants that hold after every call. */
  private async checkAfter(op: string, response: Plain): Promise<void> {
    if (typeof response.status !== "string") this.fail(`${op}: response without a status`, response);
    if (response.error_type === "internal_error") this.fail(`${op}: internal error`, response);
    if (this.harness.loggedErrors.length > 0)
      this.fail(`${op}: the engine logged errors`, this.harness.loggedErrors);

    const { state, snapshot } = await this.stored();
    const snapshotState = decodeFlowState(snapshot);
    if (!snapshotState.ok || encodeFlowState(snapshotState.state) !== snapshot)
      this.fail("the stored snapshot is not in the codec's canonical layout", snapshot);
    if (state.revision < this.revision)
      this.fail("the stored revision went down", { was: this.revision, now: state.revision });
    this.revision = state.revision;
    const steps = this.flow.steps;
    if (
      !(Number.isInteger(state.current_idx) && state.current_idx >= 0 && state.current_idx <= steps.length)
    ) {
      this.fail("current_idx out of bounds", state.current_idx);
    }
    for (const [stepId, attempts] of state.attempts) {
      const step = this.flow.stepById.get(stepId);
      if (!step) this.fail(`attempts of an unknown step '${stepId}'`, [...state.attempts]);
      if (this.countBounded && attempts > step.retries && !this.exhausted.has(stepId)) {
        this.fail(`step '${stepId}': ${attempts} attempts, limit ${step.retries}, never exhausted`, [
          ...state.attempts,
        ]);
      }
    }
    if (this.flow.maxRounds !== null && state.round > this.flow.maxRounds) {
      this.fail(`round ${state.round} above max_rounds ${this.flow.maxRounds}`, state.round);
    }
    // What a restarted server would see equals what this one holds (durations aside).
    const mine = await this.audit();
    const theirs = await this.audit(this.harness.fresh());
    if (!isDeepStrictEqual(mine, theirs))
      this.fail("audit after a reload differs from the live audit", { mine, theirs });
  }
}
