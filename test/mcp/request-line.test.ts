// The line transport's one parse of a request line (mcp/request-line.ts): a tools/call request is
// parsed once, kind-preservingly, and the message the SDK routes must be exactly what JSON.parse
// would have given (ids, names, `_meta`, odd keys, big and float numbers), its arguments the plain
// form of the decoded ones; a line JSON.parse refuses (NaN, Infinity, bad syntax) is refused.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeWire, wireToPlain } from "../../interpreter/index";
import { parseRequestLine } from "../../mcp/request-line";
import { dictGetStr, PyDict, parseJson } from "../../stdlib/index";

/**
 * JSON texts of numbers where JSON.parse and the kind-preserving parser disagree on the kind. (Not
 * the integer `-0`: it is read as 0, as Python reads it, which JSON.stringify writes alike.)
 */
const awkwardNumber = fc.constantFrom("1.0", "-0.0", "1e2", "12345678901234567890", "1E400", "0.1");
// (Not `constructor`: toStrictEqual compares it as the type, so two equal parses of it differ.)
const key = fc.constantFrom("a", "__proto__", "1", "0", "10", "b");
/** A JSON text built from awkward pieces (numbers as written, keys that JS objects treat specially). */
const value: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    awkwardNumber,
    fc.jsonValue({ maxDepth: 0 }).map((v) => JSON.stringify(v)),
    fc.array(tie("v"), { maxLength: 3 }).map((xs) => `[${xs.join(", ")}]`),
    fc
      .array(fc.tuple(key, tie("v")), { maxLength: 3 })
      .map((kv) => `{${kv.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ")}}`),
  ),
})).v;

const toolCallLine = fc
  .record({
    id: fc.oneof(fc.constant('"x"'), fc.constant("7"), awkwardNumber),
    args: value,
    meta: fc.option(value, { nil: undefined }),
    extra: fc.option(value, { nil: undefined }),
  })
  .map(
    ({ id, args, meta, extra }) =>
      `{"jsonrpc": "2.0", "id": ${id}, "method": "tools/call", "params": {"name": "stratum_audit", ` +
      `"arguments": ${args}${meta === undefined ? "" : `, "_meta": ${meta}`}}${extra === undefined ? "" : `, "x": ${extra}`}}`,
  );

describe("parseRequestLine", () => {
  it("gives a tools/call request's envelope exactly as JSON.parse does, and its arguments decoded once", () => {
    fc.assert(
      fc.property(toolCallLine, (line) => {
        const parsed = parseRequestLine(line);
        expect(parsed).not.toBeNull();
        const json = parsed?.json as { params: Record<string, unknown> };
        const standard = JSON.parse(line) as { params: Record<string, unknown> };
        const { arguments: args, ...params } = json.params;
        const { arguments: standardArgs, ...standardParams } = standard.params;
        expect({ ...json, params }).toStrictEqual({ ...standard, params: standardParams });
        expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
        // The arguments: the kind-preserving decoding, and its plain form for the schemas.
        const decoded = dictGetStr(dictGetStr(parseJson(line) as PyDict, "params") as PyDict, "arguments");
        expect(encodeWire(parsed?.toolArguments)).toBe(encodeWire(decoded));
        expect(wireToPlain(args as never)).toStrictEqual(wireToPlain(decoded ?? null));
        expect(standardArgs).toBeDefined();
      }),
      { numRuns: 300 },
    );
  });

  it("keeps `1.0` a float and a big integer exact in the arguments", () => {
    const parsed = parseRequestLine(
      '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {"f": 1.0, "n": 12345678901234567890}}}',
    );
    expect(encodeWire(parsed?.toolArguments)).toBe('{"f": 1.0, "n": 12345678901234567890}');
  });

  it("converts the arguments only down to the levels the schemas look at", () => {
    const parsed = parseRequestLine(
      '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": ' +
        '{"task_results": [{"result": {"deep": [1.0]}, "w": 2.5}], "s": "x"}}}',
    );
    if (parsed === null) throw new Error("not parsed");
    const args = (parsed.json as { params: { arguments: Record<string, unknown> } }).params.arguments;
    const item = (args.task_results as Record<string, unknown>[])[0] as Record<string, unknown>;
    expect(item.w).toBe(2.5);
    expect(args.s).toBe("x");
    // The item's own containers are the decoded values themselves, not copies.
    const decoded = dictGetStr(parsed.toolArguments as PyDict, "task_results") as PyDict[];
    expect(item.result).toBe(dictGetStr(decoded[0] as PyDict, "result"));
    expect(item.result).toBeInstanceOf(PyDict);
  });

  it("refuses what JSON.parse refuses", () => {
    for (const bad of ["NaN", "Infinity", "-Infinity", "1.", "{", "'x'", "[1,]"]) {
      const line = `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {"r": ${bad}}}}`;
      expect(() => JSON.parse(line)).toThrow();
      expect(parseRequestLine(line)).toBeNull();
    }
    expect(parseRequestLine("not json")).toBeNull();
  });

  it("reads any other line with JSON.parse, even one that mentions tools/call", () => {
    for (const line of [
      '{"jsonrpc": "2.0", "id": 1, "method": "ping"}',
      '{"jsonrpc": "2.0", "id": 2, "result": {"m": "tools/call", "n": 12345678901234567890}}',
      '{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "t"}}',
    ]) {
      const parsed = parseRequestLine(line);
      expect(parsed?.json).toStrictEqual(JSON.parse(line));
      expect(parsed !== null && "toolArguments" in parsed).toBe(false);
    }
  });

  it("decodes the arguments of a tools/call whose method is written with escapes", () => {
    const parsed = parseRequestLine(
      '{"jsonrpc": "2.0", "id": 1, "method": "tools\\/call", "params": {"name": "t", "arguments": {"f": 1.0}}}',
    );
    expect(encodeWire(parsed?.toolArguments)).toBe('{"f": 1.0}');
  });

  it("builds a 100,000-level `_meta` without overflowing the stack", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const line = `{"jsonrpc": "2.0", "id": "d", "method": "tools/call", "params": {"name": "t", "arguments": {}, "_meta": ${deep}}}`;
    expect(parseRequestLine(line)?.toolArguments).toBeInstanceOf(PyDict);
  });
});
