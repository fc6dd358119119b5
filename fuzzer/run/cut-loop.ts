// What looped in a run the fuzzer cut (at its call limit, or where it stopped a loop): the state
// of the root flow is remembered after every call, as the properties read it, and the first call
// after which the run is back in a state it was in after an earlier call closes a lasso — the
// calls before it (the prefix) and the calls between the two (one turn of the loop). A property
// broken because its run was cut names that turn, so the reader sees the loop rather than the
// count of calls. A run with no repeated state names its most dispatched step instead.
import { callWord } from "../call-word";
import type { Exchange } from "./session";

/** The property state after one call, as the loop watch keeps it. */
interface CallState {
  readonly call: number;
  readonly exchange: Exchange;
  readonly state: LoopState;
}

/**
 * The property state after a call, as the loop watch reads it; it must not change afterwards. Its
 * key and words are asked for only when a run is cut: most runs never need them.
 */
export interface LoopState {
  /** Equal for equal states; `round: false` leaves the round out. */
  key(round: boolean): string;
  readonly currentRound: number;
  /** The state in words (the steps running, the gates decided). */
  describe(): string;
}

/** A lasso: calls `from`..`to` (0-based, inclusive) took the run from the state after `from - 1` back to it. */
export interface Lasso {
  readonly from: number;
  readonly to: number;
  /** The turn's calls in words. */
  readonly calls: readonly string[];
  /** The repeated state in words. */
  readonly state: string;
  /** Whether the state came back in a later round (only for a property that does not read it). */
  readonly roundAside: boolean;
}

export class LoopWatch {
  private readonly states: CallState[] = [];
  private readonly dispatches = new Map<string, number>();

  /** The call at `call` ended with the root flow in `state` (which must not change afterwards). */
  noteCall(ex: Exchange, call: number, state: LoopState): void {
    this.states.push({ call, exchange: ex, state });
  }

  /** The root flow dispatched `step` (once more). */
  noteDispatch(step: string): void {
    this.dispatches.set(step, (this.dispatches.get(step) ?? 0) + 1);
  }

  /** The first lasso of the run (`round`: whether the state's round counts), or null. */
  lasso(round: boolean): Lasso | null {
    const first = new Map<string, CallState>();
    for (const s of this.states) {
      const key = s.state.key(round);
      const earlier = first.get(key);
      if (earlier !== undefined && earlier.call < s.call) {
        return {
          from: earlier.call + 1,
          to: s.call,
          calls: this.words().slice(earlier.call + 1, s.call + 1),
          state: earlier.state.describe(),
          roundAside: earlier.state.currentRound !== s.state.currentRound,
        };
      }
      if (earlier === undefined) first.set(key, s);
    }
    return null;
  }

  /** Each noted call in words, at its index (a call that changed no state has none). */
  private words(): string[] {
    const out: string[] = [];
    for (const s of this.states) out[s.call] = callWord(s.exchange.call);
    return out;
  }

  /**
   * What looped, in words: the first lasso, else the step dispatched most often (when one was
   * dispatched more than once), else nothing.
   */
  describe(round: boolean): string {
    const l = this.lasso(round);
    if (l !== null) {
      const turn = l.calls.length > 12 ? [...l.calls.slice(0, 11), "…"] : l.calls;
      const range = l.from === l.to ? `call ${l.from + 1}` : `calls ${l.from + 1}–${l.to + 1}`;
      const aside = l.roundAside ? ", its round aside" : "";
      return `; what looped: ${range} (${turn.join(" → ")}) brought the run back to the state it was in after call ${l.from} (${l.state}${aside})`;
    }
    let most: [string, number] | null = null;
    for (const entry of this.dispatches) if (most === null || entry[1] > most[1]) most = entry;
    if (most === null || most[1] < 2) return "";
    return `; what looped: step '${most[0]}' was dispatched ${most[1]} times`;
  }
}
