// A stub agent program for STRATUM_AGENT_COMMAND that prints hostile output: a node script that
// reads its prompt (`<mode> <n>`, from `intent_template: "{task.mode}"`) on stdin and prints
//   array N   `[[…]]` N levels deep        object N  `{"a": {"a": … 1}}` N levels deep
//   values N  one array of N values         bytes N   N bytes that are not JSON
//   string N  a JSON string of N characters text      a line that is not JSON
//   ok        `{"done": "<task id>"}`
//   count MS  marks itself running in `<dir>/running/`, appends how many are running to
//             `<dir>/counts`, waits MS milliseconds, unmarks itself and prints `{"seen": k}`.
// The directory is written into the script, so the test does not depend on the agent's environment.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function script(dir: string): string {
  return `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
const dir = ${JSON.stringify(dir)};
let prompt = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { prompt += chunk; });
process.stdin.on("end", () => {
  const [mode, arg] = prompt.trim().split(" ");
  const n = Number(arg);
  const out = (text) => process.stdout.write(text);
  switch (mode) {
    case "array": return out("[".repeat(n) + "]".repeat(n));
    case "object": return out('{"a": '.repeat(n) + "1" + "}".repeat(n));
    case "values": return out("[" + "0,".repeat(n - 2) + "0]");
    case "bytes": return out("x".repeat(n));
    case "string": return out(JSON.stringify("y".repeat(n)));
    case "text": return out("not json: {[ at all\\n");
    case "ok": return out(JSON.stringify({ done: process.env.STRATUM_TASK_ID }));
    case "count": {
      const running = path.join(dir, "running");
      const marker = path.join(running, String(process.pid));
      fs.writeFileSync(marker, "");
      const seen = fs.readdirSync(running).length;
      fs.appendFileSync(path.join(dir, "counts"), seen + "\\n");
      setTimeout(() => {
        fs.unlinkSync(marker);
        out(JSON.stringify({ seen }));
      }, n);
      return;
    }
    default:
      process.stderr.write("unknown mode " + mode + "\\n");
      process.exitCode = 2;
  }
});
`;
}

export interface AgentStub {
  /** The program, for STRATUM_AGENT_COMMAND. */
  readonly path: string;
  /** The most agents of mode `count` that were running at once (0 when none ran). */
  maxRunning(): number;
}

/** Writes the stub into `dir` (which also holds its `running/` markers and `counts`). */
export function writeAgentStub(dir: string): AgentStub {
  mkdirSync(join(dir, "running"), { recursive: true });
  writeFileSync(join(dir, "counts"), "");
  const path = join(dir, "agent-stub.cjs");
  writeFileSync(path, script(dir));
  chmodSync(path, 0o755);
  return {
    path,
    maxRunning: () => {
      const counts = readFileSync(join(dir, "counts"), "utf8").split("\n").filter(Boolean).map(Number);
      return Math.max(0, ...counts);
    },
  };
}
