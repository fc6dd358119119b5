// Asks the daemon of this build something other than a check (`ping`, `stop`): the answer, or null
// when no daemon of this build answers.
import { connect } from "node:net";
import { BUILD_ID } from "./build-id";
import { encode } from "./protocol";

export interface DaemonInfo {
  readonly pid: number;
  readonly idleMs: number;
}

export function askDaemon(path: string, op: "ping" | "stop", timeoutMs = 2000): Promise<DaemonInfo | null> {
  return new Promise((resolve) => {
    let text = "";
    const socket = connect(path);
    socket.setEncoding("utf8");
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(null);
    });
    socket.on("error", () => resolve(null));
    socket.on("connect", () => socket.end(encode({ op, build: BUILD_ID })));
    socket.on("data", (data: string) => {
      text += data;
    });
    socket.on("end", () => {
      try {
        const a = JSON.parse(text) as { ok?: unknown; build?: unknown; pid?: unknown; idleMs?: unknown };
        const valid = a.ok === true && a.build === BUILD_ID && typeof a.pid === "number";
        resolve(valid ? { pid: a.pid as number, idleMs: Number(a.idleMs) } : null);
      } catch {
        resolve(null);
      }
    });
  });
}
