// The line transport's fast path (mcp/line-transport.ts `plainRequest`): a message it lets through
// without the SDK's JSON-RPC schema must be one the schema accepts, unchanged; anything else is left
// to the schema. Checked on generated messages near the boundary (extra keys, `_meta`, ids that
// are not integers, other jsonrpc versions, params that are not objects).
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainRequest } from "../../mcp/line-transport";

const id = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer(),
  fc.integer(),
  fc.string({ maxLength: 6 }),
  fc.double(),
  fc.constant(2 ** 60),
  fc.constant(null),
  fc.boolean(),
);
const params = fc.oneof(
  fc.dictionary(
    fc.constantFrom("name", "arguments", "_meta", "__proto__", "x"),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  fc.jsonValue({ maxDepth: 1 }),
);
const message = fc.record(
  {
    jsonrpc: fc.constantFrom("2.0", "2.0", "2.0", "1.0", 2),
    id,
    method: fc.oneof(fc.constantFrom("tools/call", "ping", "initialize"), fc.integer()),
    params,
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: ["jsonrpc", "id", "method"] },
);

describe("plainRequest", () => {
  it("lets through only requests the SDK's schema accepts unchanged", () => {
    let taken = 0;
    fc.assert(
      fc.property(message, (m) => {
        const json: unknown = JSON.parse(JSON.stringify(m)); // as the transport sees it
        const fast = plainRequest(json);
        if (fast === undefined) return;
        taken += 1;
        const checked = JSONRPCMessageSchema.safeParse(json);
        expect(checked.success).toBe(true);
        expect(checked.data).toEqual(fast);
        expect(fast).toBe(json); // the very object: the transport keys the raw line by it
      }),
      { numRuns: 5000 },
    );
    expect(taken).toBeGreaterThan(10); // the generator reaches the fast path, not only the schema
  });

  it("takes the common tool call and leaves the rest to the schema", () => {
    const call = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "stratum_plan", arguments: {} },
    };
    expect(plainRequest(call)).toBe(call);
    expect(plainRequest({ ...call, id: "a" })).toBeDefined();
    expect(plainRequest({ jsonrpc: "2.0", id: 1, method: "ping" })).toBeDefined();
    expect(plainRequest({ ...call, id: 1.5 })).toBeUndefined();
    expect(plainRequest({ ...call, params: { _meta: { progressToken: 1 } } })).toBeUndefined();
    expect(plainRequest({ ...call, extra: 1 })).toBeUndefined();
    expect(plainRequest({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
    expect(plainRequest({ jsonrpc: "2.0", id: 1, result: {} })).toBeUndefined();
    expect(plainRequest(JSON.parse('{"jsonrpc":"2.0","id":1,"method":"x","__proto__":{}}'))).toBeUndefined();
  });
});
