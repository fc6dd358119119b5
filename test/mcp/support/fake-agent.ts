// A fake agent program for server-side parallel dispatch through STRATUM_AGENT_COMMAND: a shell
// script that reads its prompt (`<mode> <task id>`, from `intent_template: "{task.mode} {task.id}"`)
// on stdin and acts by mode. Every run appends `start <id>` / `end <id>` and its pid to the log.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SCRIPT = `#!/bin/sh
prompt=$(cat)
mode=\${prompt%% *}
id=$STRATUM_TASK_ID
log=$FAKE_AGENT_LOG
echo "pid $$" >> "$log"
echo "start $id" >> "$log"
case "$mode" in
  write)
    printf 'hello %s\\n' "$id" > "$id.txt"
    echo '{"wrote": "'"$id"'.txt"}' ;;
  ok)
    echo '{"done": "'"$id"'"}' ;;
  fail)
    echo "task $id failed on purpose" >&2
    exit 3 ;;
  slow)
    sleep 0.3
    echo '"slow done"' ;;
  hang)
    sleep 60 ;;
  hang-once)
    if [ -e "$log.$id.ran" ]; then echo '"second run"'; else touch "$log.$id.ran"; sleep 60; fi ;;
esac
echo "end $id" >> "$log"
`;

/** Writes the script into `dir`; returns its path (for STRATUM_AGENT_COMMAND). */
export function writeFakeAgent(dir: string): string {
  const path = join(dir, "fake-agent.sh");
  writeFileSync(path, SCRIPT);
  chmodSync(path, 0o755);
  return path;
}
