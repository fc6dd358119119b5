// Checks of big specs that would hold the MCP server: `stratum_validate` and `stratum_plan` checked
// every spec on the server's only event loop, so a ~2 MB spec held every other request — a
// `tools/list` too — for the seconds its check took (an 8 MB one: 22 s idle, 121 s under load), and
// SIGTERM went unheard meanwhile. Through the built stratum-mcp: a big spec is checked in a worker,
// other calls are answered meanwhile, the answers are the spec's, SIGTERM stops the server.
import { afterEach, describe, expect, it } from "vitest";
import { manyFlowsSpec } from "../../bench/lib/heavy-specs";
import { RawSession, type RpcMessage, toolContent } from "../mcp/support/raw-session";
import { type Sandbox, sandbox } from "./mcp-support";

/** ~2 MB, far over the 256 KiB threshold: its check takes seconds on this machine. */
const FLOWS = 22_500;
const QUICK_MS = 1_000;
const ANSWER_WITHIN_MS = 60_000;

let box: Sandbox | undefined;
let session: RawSession | undefined;

afterEach(async () => {
  await session?.kill();
  session = undefined;
  box?.dispose();
  box = undefined;
});

async function start(): Promise<RawSession> {
  box = sandbox("stratum-hostile-big-check-");
  session = new RawSession(box);
  await session.initialize();
  return session;
}

function call(s: RawSession, id: string, name: string, args: Record<string, unknown>): void {
  s.send({ id, method: "tools/call", params: { name, arguments: args } });
}

async function answer(s: RawSession, id: string, ms: number): Promise<RpcMessage> {
  await s.until(() => s.answers(id).length > 0, `the answer to ${id}`, ms);
  return s.answers(id)[0] as RpcMessage;
}

/** The big spec with its last flow calling a function that does not exist. */
function invalidBigSpec(): string {
  const spec = manyFlowsSpec(FLOWS);
  const at = spec.lastIndexOf("function: f0");
  return `${spec.slice(0, at)}function: missing_fn${spec.slice(at + "function: f0".length)}`;
}

describe("big specs through the built stratum-mcp", () => {
  it("validate of a valid and plan of an invalid ~2 MB spec: tools/list is answered at once meanwhile, then both answers arrive", async () => {
    const s = await start();
    const valid = manyFlowsSpec(FLOWS);
    expect(valid.length).toBeGreaterThan(1_900_000);
    call(s, "validate", "stratum_validate", { spec: valid });
    call(s, "plan", "stratum_plan", { spec: invalidBigSpec(), flow: "f0" });
    let lists = 0;
    while (s.answers("validate").length === 0 || s.answers("plan").length === 0) {
      const t = performance.now();
      const reply = await s.request(`list-${lists}`, "tools/list", undefined, ANSWER_WITHIN_MS);
      expect(performance.now() - t, "tools/list took").toBeLessThan(QUICK_MS);
      expect(reply.error).toBeUndefined();
      lists++;
      await new Promise((r) => setTimeout(r, 200));
    }
    // The checks took seconds: tools/list was asked (and answered) many times while they ran.
    expect(lists).toBeGreaterThan(3);

    const v = toolContent(await answer(s, "validate", ANSWER_WITHIN_MS));
    expect(v.valid).toBe(true);
    expect(v.errors).toEqual([]);

    const p = toolContent(await answer(s, "plan", ANSWER_WITHIN_MS));
    expect(p.status).toBe("error");
    const errors = p.errors as Record<string, unknown>[];
    expect(errors.length).toBeGreaterThan(0);
    const { status: _status, errors: _errors, ...first } = p;
    expect(first).toEqual(errors[0]);
    expect(JSON.stringify(errors)).toContain("missing_fn");
    expect(String(errors[0]?.path)).toContain(`f${FLOWS - 1}`);
  });

  it("SIGTERM during the check of a big spec stops the server within a few seconds", async () => {
    const s = await start();
    call(s, "validate", "stratum_validate", { spec: manyFlowsSpec(FLOWS) });
    await new Promise((r) => setTimeout(r, 1_000));
    const t = performance.now();
    s.signal("SIGTERM");
    const exited = await Promise.race([
      s.exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 3_000)),
    ]);
    expect(exited, "exited within 3 s of SIGTERM").toBe(true);
    expect(performance.now() - t).toBeLessThan(3_000);
  });
});
