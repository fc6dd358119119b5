// Exhaustive paths share their prefixes: a path that differs from an explored one at decision j
// made the same calls as it up to there, so the engine's part of them is not done again. The
// explored run records every answer and, at each decision whose other choices are still to be
// explored, the engine's state (Transport.fork); a path continuing from there answers the
// recorded calls from the record, puts the engine's state back at its first call past them, and
// goes on live. The driver itself still plays the recorded calls (its state, the observer's and
// the session's, is rebuilt from the same answers): what is shared is the engine's work, most of
// a call's cost. The engine is deterministic, so the recorded answers are the ones it would give.

import type { Option } from "../run/decider";
import { TapeDecider } from "../run/decider";
import type { Answer, EngineFork, Plain, ToolName, Transport } from "../run/session";

interface Recorded {
  readonly tool: ToolName;
  readonly flowId: unknown;
  readonly stepId: unknown;
  readonly answer: Answer;
}

/** Where a path may continue from: the first `calls` answers of a run, and the engine's state after them. */
export interface Branch {
  readonly answers: readonly Recorded[];
  readonly calls: number;
  readonly engine: EngineFork;
}

/** A path's driver did not make the calls its branch recorded: the path is run again from the plan. */
export class Diverged extends Error {}

/** The transport of one path: the recorded calls of its branch first, then the engine, recording. */
export class ForkingTransport {
  private readonly recorded: Recorded[];
  private live: boolean;
  private count = 0;
  readonly transport: Transport;

  constructor(
    private readonly base: Transport,
    private readonly from: Branch | null,
  ) {
    this.recorded = from === null ? [] : from.answers.slice(0, from.calls);
    this.live = from === null;
    const send = async (tool: ToolName, args: Plain): Promise<Answer> => {
      const i = this.count++;
      if (!this.live) {
        const branch = this.from!;
        if (i < branch.calls) {
          const r = branch.answers[i]!;
          if (r.tool !== tool || r.flowId !== args.flow_id || r.stepId !== args.step_id) throw new Diverged();
          return r.answer;
        }
        branch.engine.restore();
        this.live = true;
      }
      const answer = await base(tool, args);
      this.recorded.push({ tool, flowId: args.flow_id, stepId: args.step_id, answer });
      return answer;
    };
    this.transport = Object.assign(send, {
      // A continued path's engine state is its branch's, put back at its first live call.
      newRun: () => {
        if (this.from === null) base.newRun?.();
      },
    });
  }

  /** Where another choice of the decision being made now continues from; null: from the plan. */
  branch(): Branch | null {
    if (this.count === 0 || this.base.fork === undefined) return null;
    if (!this.live) {
      // Decisions made before the path's first live call are its branch's own point.
      return this.count === this.from!.calls ? this.from : null;
    }
    return { answers: this.recorded, calls: this.count, engine: this.base.fork() };
  }
}

/** A TapeDecider that takes a branch at every decision past its prefix with other choices to explore. */
export class ForkingDecider extends TapeDecider {
  /** The branch of each such decision, by index. */
  readonly branches: (Branch | null)[] = [];
  private readonly prefixLength: number;

  constructor(
    prefix: readonly number[],
    inputMenu: readonly Record<string, unknown>[],
    private readonly fork: ForkingTransport | null,
  ) {
    super(prefix, inputMenu);
    this.prefixLength = prefix.length;
  }

  override choose<T extends string>(options: readonly Option<T>[]): T {
    const chosen = super.choose(options);
    this.decided();
    return chosen;
  }

  override inputs(): Record<string, unknown> {
    const before = this.arities.length;
    const input = super.inputs();
    if (this.arities.length > before) this.decided();
    return input;
  }

  private decided(): void {
    const j = this.arities.length - 1;
    if (this.fork !== null && j >= this.prefixLength && this.arities[j]! > 1)
      this.branches[j] = this.fork.branch();
  }
}
