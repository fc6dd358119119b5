// The violations of the members of stratumc's member steps (docs/runtime.md §23.13 and
// docs/runtime.md §23.14), as the observer needs them to see an ensure that raised on one member's
// result: a quorum's `run '<id>': <status>: <violations>` lines, a lost race's `race lost:
// candidate '<id>': <status>: <violations>` and the `rejected` lists of `race_pending`, a won race
// and an agreed quorum, each reduced to the violation text.
import type { Plain } from "./session";

const MEMBER_LINE = /^(?:race lost: candidate|run) '[^']*': [a-z_]+: /s;
const STATUS = /^[a-z_]+: /;

/** The member-level violation texts of a response (empty for any other response). */
export function memberViolations(response: Plain): string[] {
  const out: string[] = [];
  if (Array.isArray(response.violations)) {
    for (const v of response.violations) {
      if (typeof v !== "string") continue;
      const head = MEMBER_LINE.exec(v);
      if (head !== null) out.push(v.slice(head[0].length));
    }
  }
  const won = [response.race, response.quorum].map((v) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Plain).rejected : undefined,
  );
  for (const list of [response.rejected, ...won]) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const violations =
        entry !== null && typeof entry === "object" ? (entry as Plain).violations : undefined;
      if (!Array.isArray(violations)) continue;
      for (const v of violations) {
        if (typeof v !== "string") continue;
        const head = STATUS.exec(v);
        if (head !== null) out.push(v.slice(head[0].length));
      }
    }
  }
  return out;
}
