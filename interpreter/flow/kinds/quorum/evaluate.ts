// Judging a quorum step's runs (docs/reference/runtime.md §23.13): each complete run's result is checked
// as the step's result would be (contract, output_schema, ensure); `agree_on` is evaluated on each
// passing result; the keys are grouped by Python equality (as dict keys: 1, 1.0 and True are one
// key). The largest group wins when it has at least the required votes and no other group is as
// large (a tie reaching the threshold is no agreement); the step's result is then the first result (in member order) of that group. Runs that
// failed, were not reported, or whose key raised or is unhashable vote for nothing.
import type { StepIR } from "../../../../checker/ir/types";
import { dictGet, dictSet, isHashable } from "../../../../stdlib/values/dict";
import { repr, strRepr } from "../../../../stdlib/values/repr";
import { PyDict, PyFloat, type PyValue } from "../../../../stdlib/values/value";
import { bindable, evaluateIn } from "../../expressions";
import type { FlowRun } from "../../run";
import type { Tx } from "../../tx";
import {
  agreementViolation,
  type MemberVerdict,
  type MemberViolation,
  memberViolation,
  type Violation,
} from "../../violations";
import { type MemberReport, memberFailure } from "../shared/member-reports";
import { quorumOf, requiredVotes, runIds } from "./payload";

export interface QuorumJudgement {
  /** The winning group's first result, or undefined when there is no agreement. */
  readonly winner: { readonly id: string; readonly result: PyValue } | undefined;
  /** Empty on agreement: `no quorum on …` then one line per run that voted for nothing. */
  readonly violations: readonly Violation[];
  /** What the audit keeps (`judge_outcome[<step>]`): the votes and why runs did not vote. */
  readonly record: PyDict;
  /** The runs that voted for nothing and why, in member order. */
  readonly rejected: readonly MemberViolation[];
}

interface Group {
  readonly key: PyValue;
  readonly ids: string[];
  readonly results: PyValue[];
}

export function judgeQuorum(
  tx: Tx,
  run: FlowRun,
  step: StepIR,
  reports: ReadonlyMap<string, MemberReport>,
): QuorumJudgement {
  const quorum = quorumOf(step);
  const names = new Map<string, PyValue>();
  const groups = new PyDict(); // key → index into `ordered`
  const ordered: Group[] = [];
  const failed: MemberViolation[] = [];
  const fail = (id: string, verdict: MemberVerdict) => failed.push(memberViolation("run", id, verdict));
  for (const id of runIds(quorum)) {
    const report = reports.get(id);
    const reason = memberFailure(tx, run, step, report);
    if (reason !== null) {
      fail(id, reason);
      continue;
    }
    const result = report?.result ?? null;
    names.set("result", bindable(result));
    const key = evaluateIn(tx, run, quorum.agreeOn, names);
    if (!key.ok) {
      fail(id, {
        status: "agree_on_raised",
        reasons: [],
        error: key.error,
        why: `agree_on raised: ${key.message}`,
      });
      continue;
    }
    if (!isHashable(key.value)) {
      const why = `agree_on value ${repr(key.value)} is unhashable`;
      fail(id, { status: "agree_on_unhashable", reasons: [], error: null, why });
      continue;
    }
    const index = dictGet(groups, key.value);
    if (typeof index === "number") {
      ordered[index]?.ids.push(id);
      ordered[index]?.results.push(result);
    } else {
      dictSet(groups, key.value, ordered.length);
      ordered.push({ key: key.value, ids: [id], results: [result] });
    }
  }
  const needed = requiredVotes(quorum);
  const best = Math.max(0, ...ordered.map((g) => g.ids.length));
  const leaders = ordered.filter((g) => g.ids.length === best);
  const leader = leaders[0];
  const agreed = leader !== undefined && leaders.length === 1 && best >= needed;
  const winner = agreed ? { id: leader.ids[0] ?? "", result: leader.results[0] ?? null } : undefined;
  const record = judgementRecord(step, needed, ordered, failed, winner?.id ?? null);
  if (winner !== undefined) return { winner, violations: [], record, rejected: failed };
  const head = `no quorum on ${strRepr(quorum.agreeOn.text)}`;
  const summary =
    leader === undefined
      ? `${head}: no run passed its checks, threshold ${needed}`
      : best < needed
        ? `${head}: best ${repr(leader.key)} ${best} of ${quorum.runs}, threshold ${needed}`
        : `${head}: tie between ${leaders.map((g) => repr(g.key)).join(", ")} at ${best} of ${quorum.runs}, threshold ${needed}`;
  return {
    winner,
    violations: [agreementViolation(summary), ...failed],
    record,
    rejected: failed,
  };
}

/** `{agree_on, runs, required_votes, votes: [{key, runs}], winner, failed: {id: reason}}`. */
function judgementRecord(
  step: StepIR,
  needed: number,
  groups: readonly Group[],
  failed: readonly MemberViolation[],
  winner: string | null,
): PyDict {
  const quorum = quorumOf(step);
  const record = new PyDict();
  dictSet(record, "agree_on", quorum.agreeOn.text);
  dictSet(record, "runs", quorum.runs);
  dictSet(record, "required_votes", needed);
  dictSet(
    record,
    "votes",
    groups.map((g) => {
      const vote = new PyDict();
      dictSet(vote, "key", storable(g.key));
      dictSet(vote, "runs", [...g.ids]);
      return vote;
    }),
  );
  dictSet(record, "winner", winner);
  const reasons = new PyDict();
  for (const m of failed) dictSet(reasons, m.member, m.verdict.why);
  dictSet(record, "failed", reasons);
  return record;
}

/** The flow state holds JSON kinds only: a key of another kind (a tuple) is kept as its repr. */
function storable(key: PyValue): PyValue {
  return key === null || typeof key !== "object" || key instanceof PyFloat ? key : repr(key);
}
