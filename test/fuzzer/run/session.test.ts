// The session records each call with flow ids replaced by placeholders, at any depth, and never
// changes the arguments it was given; a replay maps the placeholders back.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Plain, Session, type Transport } from "../../../fuzzer/run/session";

const IDS = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];

/** Answers a plan with the next id, any other call with a bare status. */
function fakeTransport(): Transport {
  let next = 0;
  return async (tool) => ({
    response: tool === "stratum_plan" ? { status: "execute_step", flow_id: IDS[next++] } : { status: "ok" },
    events: [],
  });
}

/** JSON values whose strings are sometimes the ids. */
const json = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...IDS, "other", "<flow-1>"),
    fc.integer(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "flow_id"), tie("v"), { maxKeys: 3 }),
  ),
})).v;

/** The expected recording: every string equal to a known id replaced, deeply. */
function placeheld(v: unknown): unknown {
  if (typeof v === "string") {
    const i = IDS.indexOf(v);
    return i < 0 ? v : `<flow-${i + 1}>`;
  }
  if (Array.isArray(v)) return v.map(placeheld);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placeheld(x)]));
  return v;
}

describe("Session", () => {
  it("records ids as placeholders at any depth, and leaves the arguments as they were", async () => {
    await fc.assert(
      fc.asyncProperty(json, async (result) => {
        const session = new Session(fakeTransport());
        await session.call("stratum_plan", { spec: "s", flow: "main", inputs: {} });
        await session.call("stratum_plan", { spec: "s", flow: "main", inputs: {} });
        const args: Plain = { flow_id: IDS[0], step_id: "s", result };
        const before = structuredClone(args);
        await session.call("stratum_step_done", args);
        expect(args).toEqual(before);
        const recorded = session.recorded()[2]!;
        expect(recorded.arguments).toEqual(placeheld(before));
        // A replay sends the call with the real ids again.
        const replayed = new Session(fakeTransport());
        await replayed.replay(session.recorded()[0]!);
        await replayed.replay(session.recorded()[1]!);
        await replayed.replay(recorded);
        expect(replayed.recorded()[2]).toEqual(recorded);
      }),
      { numRuns: 200 },
    );
  });
});
