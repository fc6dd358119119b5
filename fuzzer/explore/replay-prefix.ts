// Minimization replays share their prefixes: a candidate differs from the current witness from
// some call on (a chunk left out, one value made simpler) and makes the same calls before it, so
// the engine's answers to those calls are the witness replay's answers and its state before the
// first differing call is the one the witness replay had there (Transport.fork). A replay answers
// the shared calls from the witness's record, puts the engine's state back at the first differing
// call and goes on live, taking the engine's state before each later call for the replays that
// share its own prefix if it becomes the witness. The session and the observer still see every
// call (their state is rebuilt from the same answers): what is shared is the engine's work. All
// replays run on one engine, so the flow ids in a recorded answer are the ones its states hold.

import type { Answer, EngineFork, Plain, ToolName, Transport, WireCall } from "../run/session";

interface Sent {
  readonly tool: ToolName;
  readonly flowId: unknown;
  readonly stepId: unknown;
  readonly answer: Answer;
}

/** What one replay sent the engine and the engine's state before each of its calls. */
export interface ReplayRecord {
  /** The calls replayed (the same objects a candidate sharing them holds). */
  readonly calls: readonly WireCall[];
  /** Every call sent, audits included, in order. */
  readonly sent: readonly Sent[];
  /** Index in `sent` of each replayed call (the audits between calls are the observer's). */
  readonly starts: readonly number[];
  /** The engine's state before each replayed call (none before the first: a fresh run). */
  readonly before: readonly (EngineFork | undefined)[];
}

/** A replay's transport, and the record it fills. */
export interface PrefixReplay {
  readonly transport: Transport;
  readonly record: ReplayRecord;
  /** Calls answered from the witness's record. */
  readonly shared: number;
}

/** The replay's calls did not match the witness's record: it must be replayed from a fresh run. */
export class PrefixDiverged extends Error {}

/** How many calls of `candidate` are the witness's calls (the same objects) and have a state before them. */
function sharedLength(candidate: readonly WireCall[], witness: ReplayRecord): number {
  let p = 0;
  const most = Math.min(candidate.length, witness.starts.length);
  while (p < most && candidate[p] === witness.calls[p]) p++;
  // The state before the first differing call, or else the last call's, is where the replay goes live.
  while (p > 0 && witness.before[p] === undefined) p--;
  return p;
}

/**
 * Replays over one engine (`base`, which must fork), each continuing from the witness it is given
 * at the longest prefix of calls they share.
 */
export function prefixReplay(
  base: Transport & { readonly fork: () => EngineFork },
  candidate: readonly WireCall[],
  witness: ReplayRecord | null,
): PrefixReplay {
  const shared = witness === null ? 0 : sharedLength(candidate, witness);
  const sent: Sent[] =
    witness === null ? [] : witness.sent.slice(0, witness.starts[shared] ?? witness.sent.length);
  const starts: number[] = witness === null ? [] : witness.starts.slice(0, shared);
  const before: (EngineFork | undefined)[] = witness === null ? [] : witness.before.slice(0, shared + 1);
  let live = shared === 0;
  // A replay from the plan starts a run as a fresh engine would (nothing in the result cache).
  if (live) base.newRun?.();
  let calls = 0;
  const send = async (tool: ToolName, args: Plain): Promise<Answer> => {
    const i = calls;
    const wire = tool !== "stratum_audit";
    if (!live) {
      if (i < sent.length) {
        const r = sent[i]!;
        if (r.tool !== tool || r.flowId !== args.flow_id || r.stepId !== args.step_id)
          throw new PrefixDiverged();
        calls++;
        return r.answer;
      }
      if (!wire) throw new PrefixDiverged(); // the witness's observer made no such audit
      before[starts.length]!.restore();
      live = true;
    } else if (wire && starts.length > 0 && before[starts.length] === undefined) {
      before[starts.length] = base.fork();
    }
    if (wire) starts.push(sent.length);
    calls++;
    const answer = await base(tool, args);
    sent.push({ tool, flowId: args.flow_id, stepId: args.step_id, answer });
    return answer;
  };
  return { transport: send, record: { calls: candidate, sent, starts, before }, shared };
}
