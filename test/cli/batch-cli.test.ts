// `stratumc eval --batch` end to end, through the built bundle.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, stratumc } from "./run-cli";

let dir = "";
beforeAll(() => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-batch-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CASES: [string, unknown][] = [
  ['{"expr": "1 + 1"}', { repr: "2" }],
  ['{"expr": "x * 2", "bindings": {"x": 1.0}}', { repr: "2.0" }],
  [
    '{"expr": "n * n", "bindings": {"n": 123456789012345678901}}',
    { repr: "15241578753238836750437433565526596567801" },
  ],
  ['{"expr": "result.v", "bindings": {"result": {"v": [1, "a"]}}}', { repr: "[1, 'a']" }],
  ['{"expr": "1 // 0"}', { error: "ZeroDivisionError: integer division or modulo by zero" }],
  [
    '{"expr": "x + \'a\'", "bindings": {"x": 1}}',
    { error: "TypeError: unsupported operand type(s) for +: 'int' and 'str'", static: ["EXPR-TYPE"] },
  ],
  ['{"expr": "nope + 1"}', { error: "NameError: name 'nope' is not defined", static: ["EXPR-UNKNOWN-NAME"] }],
  ['{"expr": "1 +"}', { error: "SyntaxError: unexpected end of expression", code: "EXPR-SYNTAX" }],
  ['{"expr": "2 ** 3"}', { error: "SyntaxError: '**' is not supported", code: "EXPR-SYNTAX" }],
  [
    '{"expr": "$.input.name.upper() + $.steps.s.output.k", "input": {"name": "bob"}, "steps": {"s": {"k": "!"}}}',
    { repr: "'BOB!'" },
  ],
  ["{not json", { error: expect.stringMatching(/^InputError: invalid JSON: /) }],
  ["[1, 2]", { error: "InputError: expected a JSON object, got array" }],
  ['{"bindings": {}}', { error: "InputError: missing key 'expr'" }],
  ['{"expr": 1}', { error: "InputError: 'expr' must be a string, got number" }],
  ['{"expr": "x", "bindings": [1]}', { error: "InputError: 'bindings' must be an object, got array" }],
  [
    '{"expr": "x", "binding": {}}',
    { error: "InputError: unknown key 'binding' (expected expr, bindings, input, steps)" },
  ],
  ["", { error: expect.stringMatching(/^InputError: /) }],
  ['{"expr": "\'😀\' * 2"}', { repr: "'😀😀'" }],
];

function parseLines(stdout: string): unknown[] {
  expect(stdout.endsWith("\n")).toBe(true);
  return stdout
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as unknown);
}

describe("stratumc eval --batch", () => {
  it("answers every line of a JSONL file in order, going on after bad lines", () => {
    const file = join(dir, "cases.jsonl");
    writeFileSync(file, `${CASES.map(([line]) => line).join("\n")}\n`);
    const r = stratumc(["eval", "--batch", file]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(parseLines(r.stdout)).toEqual(CASES.map(([, expected]) => expected));
  });

  it("reads stdin with '-' and accepts CRLF line ends", () => {
    const input = '{"expr": "len(\'abc\')"}\r\n{"expr": "None"}\r\n';
    const r = stratumc(["eval", "--batch", "-"], { input });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('{"repr": "3"}\n{"repr": "None"}\n'); // json.dumps separators
  });

  it("reports the too-long and too-deep limits as syntax errors with their codes", () => {
    const long = JSON.stringify({ expr: `'${"a".repeat(10_001)}'` });
    const deep = JSON.stringify({ expr: `${"(".repeat(150)}1${")".repeat(150)}` });
    const r = stratumc(["eval", "--batch", "-"], { input: `${long}\n${deep}\n` });
    const [a, b] = parseLines(r.stdout) as { error: string; code: string }[];
    expect(a).toEqual({
      error: "SyntaxError: expression is too long (10003 characters; the limit is 10000)",
      code: "EXPR-TOO-LONG",
    });
    expect(b?.code).toBe("EXPR-TOO-DEEP");
    expect(b?.error).toBe("SyntaxError: expression is nested too deeply (the limit is 100 levels)");
  });

  it("uses --root for file builtins and rejects per-line options on the command line", () => {
    writeFileSync(join(dir, "here.txt"), "x");
    const input = '{"expr": "file_exists(\'here.txt\')"}\n';
    expect(parseLines(stratumc(["eval", "--batch", "-", "--root", dir], { input }).stdout)).toEqual([
      { repr: "True" },
    ]);
    const r = stratumc(["eval", "--batch", "-", "--bindings", "{}"], { input });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("stratumc: --bindings cannot be combined with --batch (give it per line)\n");
  });

  it("exits 2 when the batch file cannot be opened", () => {
    const r = stratumc(["eval", "--batch", join(dir, "missing.jsonl")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^stratumc: --batch: cannot open .*missing\.jsonl: ENOENT\n$/);
  });
});
