// Every stored flow is loadable, in process: the flow codec writes exactly what
// it reads — a file at MAX_FLOW_FILE_DEPTH round-trips, one level more is refused by the writer
// (FlowTooLargeError: nothing written) and by the reader (a reason naming the limit, so
// `flow_corrupt`, never a stack overflow); the engine leaves the argument limits to the boundary
// the values came through (the MCP server refuses them, deep-values.test.ts), and answers
// `flow_too_large` for a commit the writer refuses; any state holding values within the limits
// round-trips (fast-check).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FlowState } from "../../interpreter/base/flow-state";
import { MAX_FLOW_FILE_DEPTH, MAX_VALUE_DEPTH, valueShape } from "../../interpreter/limits";
import { decodeFlowState, encodeFlowState, FlowTooLargeError } from "../../interpreter/store/codec";
import type { MemoryStore } from "../../interpreter/store/memory-store";
import { encodeWire } from "../../interpreter/wire/encode";
import type { WireObject } from "../../interpreter/wire/wire";
import { makeDict } from "../../stdlib/values/dict";
import { parseJson } from "../../stdlib/values/json";
import type { PyValue } from "../../stdlib/values/value";
import { harness, plain, planOk, stored } from "../interpreter/flow/api-fixtures";
import { arbitraryFlowState, arbitraryUserData } from "../interpreter/support/arbitrary-state";
import { nestedText, resultText } from "./deep-support";
import { tinySpec } from "./mcp-support";

const nested = (depth: number, kind: "array" | "object"): PyValue => parseJson(nestedText(depth, kind));

/** A result of the tiny spec's step whose depth is `depth` (the result object is level 1). */
const resultOfDepth = (depth: number, kind: "array" | "object" = "array"): PyValue =>
  parseJson(resultText(depth, kind));

async function flowAfterOneStep(): Promise<{ t: ReturnType<typeof harness>; id: string; state: FlowState }> {
  const t = harness();
  const id = (await planOk(t.api, tinySpec())).flow_id as string;
  expect((await t.api.stepDone({ flow_id: id, step_id: "s1", result: resultOfDepth(1) })).status).toBe(
    "complete",
  );
  return { t, id, state: await stored(t.store, id) };
}

/** How deep the file is: the state's top object is level 1. */
const fileDepth = (text: string): number => valueShape(parseJson(text)).depth;

describe("the flow codec at its depth limit", () => {
  it("writes and reads back a file exactly MAX_FLOW_FILE_DEPTH deep; one level more is refused both ways", async () => {
    const { state } = await flowAfterOneStep();
    // step_outputs (level 2) → "s1" value: a value of depth d makes the file 2 + d deep.
    const atLimit = { ...state, step_outputs: new Map([["s1", nested(MAX_FLOW_FILE_DEPTH - 2, "object")]]) };
    const text = encodeFlowState(atLimit);
    expect(fileDepth(text)).toBe(MAX_FLOW_FILE_DEPTH);
    const decoded = decodeFlowState(text);
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(encodeFlowState(decoded.state)).toBe(text);

    const over = { ...state, step_outputs: new Map([["s1", nested(MAX_FLOW_FILE_DEPTH - 1, "array")]]) };
    expect(() => encodeFlowState(over)).toThrow(FlowTooLargeError);
    expect(() => encodeFlowState(over)).toThrow(
      `Flow '${state.flow_id}' cannot be stored: its state is nested more than 1,024 levels deep (a flow file nests at most 1,024); nothing was written`,
    );
    // The same state written by another writer without the limit: refused with the place and the
    // limit, not a crash.
    const deeper = encodeWire(over as unknown as WireObject, { indent: 2 });
    expect(fileDepth(deeper)).toBe(MAX_FLOW_FILE_DEPTH + 1);
    const refused = decodeFlowState(deeper);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? "" : refused.reason).toMatch(
      /^nested more than 1,024 levels deep: line \d+ column \d+ \(char \d+\); a flow file nests at most 1,024 levels$/,
    );
  });

  it("reads a 100,000-level file as corrupt instead of overflowing the stack", () => {
    const text = `{"flow_id": "f", "inputs": ${nestedText(100_000, "array")}}`;
    const decoded = decodeFlowState(text);
    expect(decoded.ok ? "decoded" : decoded.reason).toContain("a flow file nests at most 1,024 levels");
  });

  it("round-trips any state whose values are within the limits (fast-check)", () => {
    const deepValue = fc
      .tuple(
        arbitraryUserData,
        fc.array(fc.constantFrom("list", "dict"), { maxLength: MAX_VALUE_DEPTH }),
        fc.string({ maxLength: 3 }),
      )
      .map(([inner, spine, key]) => {
        let value = inner;
        const room = MAX_VALUE_DEPTH - valueShape(inner).depth;
        for (const kind of spine.slice(0, Math.max(0, room))) {
          if (kind === "list") value = [value];
          else value = makeDict([[key, value]]);
        }
        return value;
      });
    fc.assert(
      fc.property(arbitraryFlowState, deepValue, deepValue, (base, output, input) => {
        expect(valueShape(output).depth).toBeLessThanOrEqual(MAX_VALUE_DEPTH);
        const state: FlowState = {
          ...base,
          inputs: makeDict([["x", input]]),
          step_outputs: new Map([...base.step_outputs, ["deep", output]]),
        };
        const text = encodeFlowState(state);
        const decoded = decodeFlowState(text);
        if (!decoded.ok) throw new Error(decoded.reason);
        expect(encodeFlowState(decoded.state)).toBe(text);
        expect(encodeWire(decoded.state.step_outputs.get("deep"))).toBe(encodeWire(output));
      }),
      { numRuns: 150 },
    );
  });
});

describe("the engine", () => {
  it("accepts a result at the value limit, stores it and restores it", async () => {
    const t = harness();
    const id = (await planOk(t.api, tinySpec())).flow_id as string;
    const done = await t.api.stepDone({
      flow_id: id,
      step_id: "s1",
      result: resultOfDepth(MAX_VALUE_DEPTH, "object"),
    });
    expect(done.status).toBe("complete");
    expect(valueShape((await stored(t.store, id)).step_outputs.get("s1")).depth).toBe(MAX_VALUE_DEPTH);
    const resumed = await t.restart().resume({ flow_id: id });
    expect(resumed.status).toBe("complete");
    expect(encodeWire(resumed.output)).toBe(encodeWire(resultOfDepth(MAX_VALUE_DEPTH, "object")));
    expect(t.loggedErrors).toEqual([]);
  });

  it("trusts its caller with the argument limits: a result one level past them is not measured again", async () => {
    // The boundary measured it (mcp/arguments.ts); the engine does not walk every value twice.
    const t = harness();
    const id = (await planOk(t.api, tinySpec())).flow_id as string;
    const done = await t.api.stepDone({
      flow_id: id,
      step_id: "s1",
      result: resultOfDepth(MAX_VALUE_DEPTH + 1, "object"),
    });
    expect(done.status).toBe("complete");
    expect(valueShape((await stored(t.store, id)).step_outputs.get("s1")).depth).toBe(MAX_VALUE_DEPTH + 1);
    expect(t.loggedErrors).toEqual([]);
  });

  it("answers flow_too_large, and writes nothing, when a commit would nest the state past the file limit", async () => {
    const { t, id, state } = await flowAfterOneStep();
    // Another process stored an output exactly at the file limit; a checkpoint nests it deeper.
    const atLimit = { ...state, step_outputs: new Map([["s1", nested(MAX_FLOW_FILE_DEPTH - 2, "array")]]) };
    (t.store as MemoryStore).put(id, encodeFlowState(atLimit));
    const before = (await t.store.read(id))?.text;
    const commit = await t.api.commit({ flow_id: id, label: "cp" });
    expect(plain(commit)).toEqual({
      status: "error",
      error_type: "flow_too_large",
      message: `Flow '${id}' cannot be stored: its state is nested more than 1,024 levels deep (a flow file nests at most 1,024); nothing was written`,
    });
    expect((await t.store.read(id))?.text).toBe(before);
    expect((await t.api.audit({ flow_id: id })).status).toBe("complete");
    expect(t.loggedErrors).toEqual([]);
  });
});
