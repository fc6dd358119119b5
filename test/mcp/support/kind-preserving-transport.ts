// The SDK's StdioClientTransport, writing user data as a Python client would: a float argument
// (PyFloat, e.g. a step result `{"score": 1.0}`) goes on the wire as `1.0`, not JSON.stringify's
// `1`, so the server's kind-preserving argument decoding is exercised end to end. Everything else
// (spawning, reading, closing) is the SDK's own code.
import type { ChildProcess } from "node:child_process";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { encodeWire } from "../../../interpreter/wire/encode";
import { PyDict, PyFloat, PyTuple } from "../../../stdlib/values/value";

/** JSON text of a message whose leaves may be values of the value model (one line). */
export function kindPreservingJson(v: unknown): string {
  if (v instanceof PyDict || v instanceof PyFloat || v instanceof PyTuple || typeof v === "bigint") {
    return encodeWire(v);
  }
  if (Array.isArray(v)) return `[${v.map(kindPreservingJson).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      if (x !== undefined) parts.push(`${JSON.stringify(k)}:${kindPreservingJson(x)}`);
    }
    return `{${parts.join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

export class KindPreservingStdioTransport extends StdioClientTransport {
  /**
   * The server process. StdioClientTransport keeps it in a private `_process` field (SDK 1.32.2,
   * pinned exactly); the tests need it to write raw lines, wait for the exit and kill the server.
   */
  get child(): ChildProcess {
    const child = (this as unknown as { _process?: ChildProcess })._process;
    if (child === undefined) throw new Error("the server process is not running (StdioClientTransport)");
    return child;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child.stdin;
    if (stdin === null) return Promise.reject(new Error("the server has no standard input"));
    const line = `${kindPreservingJson(message)}\n`;
    return new Promise((resolve) => {
      if (stdin.write(line)) resolve();
      else stdin.once("drain", resolve);
    });
  }
}
