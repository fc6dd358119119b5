// A minimal MCP client over a server's stdio for the benchmarks: requests in order, answers matched
// by id, no schema validation (so what is measured is the server and the pipe).
import type { ChildProcess } from "node:child_process";

/** A minimal MCP client over the server's stdio: requests in order, answers matched by id. */
export class LineClient {
  private buffered = "";
  private nextId = 0;
  private readonly waiting = new Map<number, (message: Record<string, unknown>) => void>();

  constructor(private readonly child: ChildProcess) {
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      this.buffered += chunk;
      for (let nl = this.buffered.indexOf("\n"); nl !== -1; nl = this.buffered.indexOf("\n")) {
        const message = JSON.parse(this.buffered.slice(0, nl)) as Record<string, unknown>;
        this.buffered = this.buffered.slice(nl + 1);
        const resolve = this.waiting.get(message.id as number);
        this.waiting.delete(message.id as number);
        resolve?.(message);
      }
    });
  }

  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }

  /** A tool call's response object (the text content, parsed). */
  async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await this.request("tools/call", { name, arguments: args });
    const result = answer.result as { content: { text: string }[] } | undefined;
    if (result === undefined) throw new Error(`mcp bench: ${name} failed: ${JSON.stringify(answer.error)}`);
    return JSON.parse(result.content[0]?.text ?? "null") as Record<string, unknown>;
  }
}
