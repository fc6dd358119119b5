// The MCP server's own LineTransport and createMcpServer over in-memory streams: a tool call is one
// request line in and one answer line out, with no pipe or process switch in the measure.

import { EventEmitter } from "node:events";
import type { StratumApi } from "../../interpreter/api";
import { LineTransport } from "../../mcp/line-transport";
import { createMcpServer, screenRequest } from "../../mcp/server";

type Json = Record<string, unknown>;

export interface InProcessMcp {
  /** Calls a tool; answers the tool's result (the JSON text of its first content block), parsed. */
  call(name: string, args: Json): Promise<Json>;
  close(): Promise<void>;
}

export async function inProcessMcp(api: StratumApi): Promise<InProcessMcp> {
  const input = new EventEmitter();
  const waiting = new Map<number, (line: string) => void>();
  const output = {
    write(chunk: string): boolean {
      for (const line of chunk.split("\n")) {
        if (line === "") continue;
        const id = (JSON.parse(line) as { id: number }).id;
        waiting.get(id)?.(line);
        waiting.delete(id);
      }
      return true;
    },
    once(): unknown {
      return undefined;
    },
  };
  const transport = new LineTransport(
    input as unknown as ConstructorParameters<typeof LineTransport>[0],
    output,
    screenRequest,
  );
  const server = createMcpServer({ api, version: "0.0.0", toolArguments: (r) => transport.toolArguments(r) });
  await server.connect(transport);
  let nextId = 0;
  return {
    call(name, args) {
      const id = ++nextId;
      const answered = new Promise<string>((resolve) => waiting.set(id, resolve));
      const line = JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args },
      });
      // As a client's pipe delivers it: bytes, ended by a line break.
      input.emit("data", Buffer.from(`${line}\n`));
      return answered.then((text) => {
        const answer = JSON.parse(text) as { result?: { content?: { text?: string }[] }; error?: unknown };
        if (answer.result === undefined) throw new Error(`${name}: ${JSON.stringify(answer.error)}`);
        return JSON.parse(answer.result.content?.[0]?.text ?? "null") as Json;
      });
    },
    close: () => server.close(),
  };
}
