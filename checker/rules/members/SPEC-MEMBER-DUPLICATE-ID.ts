// SPEC-MEMBER-DUPLICATE-ID: two members of a race (`candidates`) or a debate (`debaters`) with one
// id. Results are reported and stored under member ids, so the second member could never be told
// apart from the first.
import { valueRange } from "../../anchors";
import { STEP_KINDS } from "../../base/step-kinds";
import { CHECKER_KINDS } from "../../kinds/index";
import { memberDecls } from "../../model/members";
import { defineRule } from "../../rule";
import { stepPath } from "../support";
import type { RuleVisitor } from "../types";

/** The kinds whose members are listed, each with an id (race: candidates, debate: debaters). */
const MEMBER_LIST_KINDS = STEP_KINDS.filter((k) => CHECKER_KINDS[k].memberList !== null);

export const SPEC_MEMBER_DUPLICATE_ID = defineRule({
  code: "SPEC-MEMBER-DUPLICATE-ID",
  severity: "error",
  family: "step-mode",
  errorType: "ir_semantic_error",
  title: "Two members of a race or debate step with the same id",
  doc: "The members of a race step (candidates) and of a debate step (debaters) report their results under their ids, and the flow state keeps them by id: two members with one id cannot be told apart. Give each member its own id.",
  example: {
    bad: "candidates:\n  - {id: quick}\n  - {id: quick, agent: codex}",
    good: "candidates:\n  - {id: quick}\n  - {id: thorough, agent: codex}",
  },
  message: (step: string, key: string, id: string) => `Step '${step}' has two ${key} with id '${id}'`,
  visit(on: RuleVisitor): void {
    on.onStep(MEMBER_LIST_KINDS, (step, { model, reporter }) => {
      const key = step.kind === null ? null : CHECKER_KINDS[step.kind].memberList;
      if (key === null) return;
      const seen = new Set<string>();
      for (const member of memberDecls(step, key)) {
        if (!seen.has(member.id)) {
          seen.add(member.id);
          continue;
        }
        const entry = member.node.get("id");
        if (entry === undefined) continue;
        reporter.report(SPEC_MEMBER_DUPLICATE_ID, {
          message: SPEC_MEMBER_DUPLICATE_ID.message(step.id, key, member.id),
          path: `${stepPath(step, key)}.${member.index}.id`,
          range: valueRange(model.source, entry),
          suggestion: `Rename this member, e.g. id: ${member.id}-${member.index + 1}`,
        });
      }
    });
  },
});
