// `stratum_judge` with a verifier (docs/reference/runtime.md §25.3): a call whose predicates are
// all deterministic is one transaction, as any flow call; one with verified or judged predicates
// is two (flow/judge/tool.ts). The first checks the call and collects the verifier requests; the
// agents run between the two, outside the engine's queue, so the server answers other calls
// meanwhile; the second judges again with their replies and records the turn. The second checks
// everything anew, so a flow that moved on meanwhile answers as it would have then. The caller may
// follow the agents (onVerifier) and cancel them (signal): a cancelled call records nothing.
import type { JudgeArgs } from "../api";
import { toolError } from "../base/tool-errors";
import type { JudgeVerifier } from "../flow/judge/t2";
import { judge, type VerifierPlan, type VerifierReply } from "../flow/judge/tool";
import type { Clock } from "../flow/ports";
import type { Tx } from "../flow/tx";
import type { Response } from "../wire/wire";

/** Runs one pass of the call in a transaction on its flow, behind the engine's queue. */
type Transact = (fn: (tx: Tx, args: JudgeArgs) => Response, args: JudgeArgs) => Promise<Response>;

export function judgeWithVerifier(
  verifier: JudgeVerifier,
  clock: Clock,
  transact: Transact,
): (args: JudgeArgs) => Promise<Response> {
  return async (args) => {
    let plan: VerifierPlan | null = null;
    const first = await transact(
      (tx, a) =>
        judge(tx, a, {
          kind: "collect",
          found: (p) => {
            plan = p;
          },
        }),
      args,
    );
    const found = plan as VerifierPlan | null;
    if (found === null) return first;
    const replies: VerifierReply[] = [];
    const total = found.requests.length;
    for (const { index, id, request, gives } of found.requests) {
      if (args.signal?.aborted === true) break;
      args.onVerifier?.({ done: replies.length, total, predicate: id });
      const answer = await verifier.verify(request, args.signal);
      replies.push({ index, answer, atMs: clock.monoMs() });
      // A verifier that gave no verdict ends the call there, as in the reference.
      if (!answer.ok || !gives(answer.text)) break;
    }
    // A cancelled call records no turn: the verdicts so far are not a judgement of the evidence.
    if (args.signal?.aborted === true) {
      return toolError(
        "cancelled",
        `cancelled by the client after ${replies.filter((r) => r.answer.ok).length} of ${total} verifier agent(s) answered; no turn recorded`,
      );
    }
    return transact((tx, a) => judge(tx, a, { kind: "finish", replies, startedMs: found.startedMs }), args);
  };
}
