// The members of stratumc's member steps as server-side tasks (docs/reference/runtime.md §23.16): one task
// object `{id, intent, agent}` per quorum run, race candidate or debater of the current round (its
// intent with the history so far), in member order, run by the executor like a parallel step's
// tasks.
import type { MemberIR } from "../../../../checker/ir/types";
import { dictSet } from "../../../../stdlib/values/dict";
import { PyDict } from "../../../../stdlib/values/value";
import type { StartedTask } from "../../parallel-start";

export function memberTasks(members: readonly MemberIR[]): StartedTask[] {
  return members.map((m) => {
    const task = new PyDict();
    dictSet(task, "id", m.id);
    dictSet(task, "intent", m.intent);
    dictSet(task, "agent", m.agent);
    return { id: m.id, task };
  });
}
