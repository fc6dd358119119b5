// What agent programs print is read under the limits of a tool argument (interpreter/limits.ts):
// output nested deeper than 512 levels is refused by its text, before it is parsed, and JSON of
// more than 1,000,000 values after parsing; within the limits, a command's output is the value
// JSON.parse gives, and text that is not JSON stays text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AgentExit,
  readClaudeOutput,
  readCodexOutput,
  readCommandOutput,
} from "../../../host/parallel/agent-output";

const exit = (stdout: string, code = 0): AgentExit => ({ code, signal: null, stdout, stderr: "" });
const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const objects = (depth: number) => `${'{"a": '.repeat(depth)}1${"}".repeat(depth)}`;
const tooDeep = (depth: number) =>
  `result: nested ${depth.toLocaleString("en-US")} levels deep; the limit is 512`;

describe("STRATUM_AGENT_COMMAND output", () => {
  it("512 levels is a result; 513, 2,000 and 1,000,000 levels fail with the limit", () => {
    expect(readCommandOutput(exit(arrays(512)))).toMatchObject({ ok: true });
    expect(readCommandOutput(exit(objects(512)))).toMatchObject({ ok: true });
    for (const depth of [513, 2_000, 1_000_000]) {
      const error = tooDeep(depth);
      expect(readCommandOutput(exit(arrays(depth)))).toEqual({ ok: false, error, tokens: 0 });
      expect(readCommandOutput(exit(objects(depth)))).toEqual({ ok: false, error, tokens: 0 });
    }
  });

  it("more than 1,000,000 values fail with the count", () => {
    const values = (n: number) => `[${"0,".repeat(n - 2)}0]`;
    expect(readCommandOutput(exit(values(1_000_000)))).toMatchObject({ ok: true });
    expect(readCommandOutput(exit(values(1_000_001)))).toEqual({
      ok: false,
      error: "result: 1,000,001 values; the limit is 1,000,000",
      tokens: 0,
    });
  });

  it("text that is not JSON is the text; brackets opened past the limit are refused, JSON or not", () => {
    expect(readCommandOutput(exit("  done, see a.py\n"))).toEqual({
      ok: true,
      result: "done, see a.py",
      tokens: 0,
    });
    expect(readCommandOutput(exit(`${"[".repeat(100)}x`))).toMatchObject({
      ok: true,
      result: `${"[".repeat(100)}x`,
    });
  });

  it("an object with any keys is a result (no key is taken for a refusal)", () => {
    expect(readCommandOutput(exit(`{"problem": "x", "__proto__": {"tooLarge": 1}}`))).toMatchObject({
      ok: true,
      result: { problem: "x" },
    });
  });

  it("property: JSON within the limits reads as JSON.parse reads it", () => {
    const json = fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v));
    fc.assert(
      fc.property(json, (text) => {
        const read = readCommandOutput(exit(text));
        expect(read).toEqual({ ok: true, result: JSON.parse(text), tokens: 0 });
      }),
      { seed: 31, numRuns: 300 },
    );
  });

  it("property: nesting fails exactly past 512 levels", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_500 }), fc.boolean(), (depth, object) => {
        const read = readCommandOutput(exit(object ? objects(depth) : arrays(depth)));
        expect(read.ok).toBe(depth <= 512);
      }),
      { seed: 31, numRuns: 200 },
    );
  });
});

describe("claude and codex output", () => {
  it("claude: a wrapper nested past the limit fails the task with the limit", () => {
    const deep = `{"type": "result", "subtype": "success", "is_error": false, "result": ${arrays(600)}}`;
    expect(readClaudeOutput(exit(deep))).toEqual({
      ok: false,
      error: "claude output: nested 601 levels deep; the limit is 512",
      tokens: 0,
    });
  });

  it("codex: an event line past the limit is skipped; the agent's messages still count", () => {
    const lines = [
      arrays(5_000),
      JSON.stringify({ type: "item.completed", item: { type: "agent_message", text: "Done." } }),
      JSON.stringify({ type: "turn.completed", usage: { input_tokens: 3, output_tokens: 4 } }),
    ];
    expect(readCodexOutput(exit(lines.join("\n")))).toEqual({ ok: true, result: "Done.", tokens: 7 });
  });
});
