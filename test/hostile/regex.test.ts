// Hostile regexes: an output_schema `pattern` such as `^(a+)+$` against "a"*34 + "!"
// backtracks for minutes in an ECMAScript engine, on the server's only thread. Patterns now run on
// RE2 (linear time); patterns RE2 cannot run are a checker warning and a clear violation; every
// result check has a step budget. The first test drives the built stratum-mcp over stdio.
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";
import { checkOutputSchema } from "../../interpreter/checks/output-schema";
import { SchemaValidator } from "../../interpreter/checks/schema/validator";
import { wireToPlain } from "../../interpreter/wire/encode";
import { linearPattern } from "../../stdlib/regex/linear";
import { dictFromRecord, fromJsonValue } from "../../stdlib/values/json";
import { McpStratumApi } from "../mcp/support/mcp-api";
import { type RunningServer, startServer, tempDir, unexpectedStderr } from "../mcp/support/server";
import { WORK_SPEC } from "./mcp-support";

const EVIL = "^(a+)+$";
const EVIL_TEXT = `${"a".repeat(34)}!`;

const spec = (pattern: string) => `${WORK_SPEC}        output_schema:
          type: object
          properties:
            v: {type: string, pattern: ${JSON.stringify(pattern)}}
`;

type Plain = Record<string, unknown>;

describe("a catastrophic pattern through the MCP server (stdio, built stratum-mcp)", () => {
  const home = tempDir("stratum-hostile-regex-");
  let server: RunningServer | undefined;

  afterEach(async () => {
    if (server !== undefined) {
      expect(await server.closeInput()).toBe(0);
      expect(unexpectedStderr(server.stderr())).toBe("");
    }
    home.dispose();
  });

  it("answers step_done within seconds and keeps answering", async () => {
    const running = await startServer({ cwd: home.path, home: home.path });
    server = running;
    const api = new McpStratumApi(async () => running.client);
    const call = async (f: (a: McpStratumApi) => Promise<unknown>) =>
      wireToPlain((await f(api)) as never) as Plain;

    const plan = await call((a) => a.plan({ spec: spec(EVIL), flow: "main", inputs: dictFromRecord({}) }));
    expect([plan.status, plan.step_id]).toEqual(["execute_step", "draft"]);
    const flow = plan.flow_id as string;

    const started = performance.now();
    const done = await call((a) =>
      a.stepDone({ flow_id: flow, step_id: "draft", result: dictFromRecord({ v: EVIL_TEXT }) }),
    );
    const elapsed = performance.now() - started;
    expect(done.status).toBe("schema_failed");
    expect(done.violations).toEqual([`output_schema violation: '${EVIL_TEXT}' does not match '${EVIL}'`]);
    expect(elapsed).toBeLessThan(5_000);

    // The server is not stuck: another call is answered, and a matching result passes.
    const ok = await call((a) =>
      a.stepDone({ flow_id: flow, step_id: "draft", result: dictFromRecord({ v: "a".repeat(34) }) }),
    );
    expect(ok.status).toBe("complete");
    expect(api.problems).toEqual([]);
  }, 60_000);
});

describe("SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED", () => {
  const codes = (pattern: string) =>
    checkSpec(spec(pattern)).diagnostics.map((d) => [d.code, d.severity, d.message] as const);

  it("warns on a backreference and a lookahead, and only there", () => {
    expect(codes("^(\\w)\\1$")).toEqual([
      [
        "SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED",
        "warning",
        "Step 'draft' output_schema pattern '^(\\\\w)\\\\1$' cannot be checked in linear time: it uses a backreference \\1",
      ],
    ]);
    expect(codes("^(?!x)").map(([c]) => c)).toEqual(["SPEC-OUTPUT-SCHEMA-PATTERN-UNSUPPORTED"]);
    for (const fine of [EVIL, "^\\p{Lu}\\w*$", "(?<=a)b", "^[^\\s]+$", "\\u{1F600}"])
      expect(codes(fine)).toEqual([]);
  });

  it("finds patternProperties keys, not patterns in const data", () => {
    const text = spec("x").replace(
      "properties:\n",
      "patternProperties:\n            '(a)\\1': true\n          const: {pattern: '\\1'}\n          properties:\n",
    );
    expect(checkSpec(text).diagnostics.map((d) => d.message)).toEqual([
      "Step 'draft' output_schema pattern '(a)\\\\1' cannot be checked in linear time: it uses a backreference \\1",
    ]);
  });

  it("the run-time check reports such a pattern instead of running it", () => {
    expect(checkOutputSchema(fromJsonValue("aa"), { pattern: "^(a)\\1$" })).toEqual([
      "output_schema violation: pattern '^(a)\\\\1$' cannot be checked in linear time: it uses a backreference \\1",
    ]);
    const names = fromJsonValue({ a: 1, b: 2 });
    expect(checkOutputSchema(names, { patternProperties: { "(?=a)": { type: "string" } } })).toEqual([
      "output_schema violation: pattern '(?=a)' cannot be checked in linear time: it uses a lookahead (?=…)",
    ]);
  });
});

describe("the step budget of a result check", () => {
  it("stops a check that does too much work, with a violation", () => {
    const v = new SchemaValidator({ type: "array", items: { type: "string", pattern: "b" } }, 1_000);
    const errors = v.errors(fromJsonValue(Array(100).fill("a".repeat(20))));
    // The strings checked before the budget ran out fail the pattern; none after it is reported.
    expect(errors.length).toBe(46);
    expect(errors.at(-1)).toBe(
      "the check was stopped after 1000 steps (the result is too large, or has too much text for its patterns); the result is not accepted",
    );
    // The same validator checks the next result afresh.
    expect(v.errors(fromJsonValue(["b"]))).toEqual([]);
  });
});

// ---- the matcher against ECMAScript's RegExp on safe patterns -------------------------------------

const search = (pattern: string, text: string): boolean => {
  const compiled = linearPattern(pattern);
  if (compiled.kind !== "linear") throw new Error(`${pattern}: ${compiled.kind}`);
  return compiled.search(text);
};

describe("the linear matcher (ECMAScript u-flag semantics, search)", () => {
  it.each([
    ["b", "abc", true],
    ["^b", "abc", false],
    ["c$", "abc", true],
    ["a$", "a\n", false], // $ is the end of the text only (no multiline, no final-newline rule)
    ["^.$", "😀", true], // one code point
    ["^..$", "😀", false],
    ["^.$", "\n", false],
    ["^.$", "\u2028", false],
    ["^.$", "\r", false],
    ["\\s", "\u00a0", true],
    ["\\s", "\ufeff", true],
    ["^\\S$", "\u3000", false],
    ["^[^\\s]$", "é", true],
    ["\\d", "٣", false], // \d is ASCII
    ["\\w", "é", false], // \w is ASCII
    ["\\bé", " é", false],
    ["^\\p{Lu}", "Émile", true],
    ["^\\p{Letter}+$", "Ωé", true],
    ["^\\p{Script=Greek}$", "Ω", true],
    ["^\\p{ASCII_Hex_Digit}+$", "c0FFee", true],
    ["^[\\P{L}]$", "1", true],
    ["^\\u{1F600}$", "😀", true],
    ["^\\uD83D\\uDE00$", "😀", true],
    ["^[😀-😂]$", "😁", true],
    ["[]", "a", false],
    ["[^]", "\n", true],
    ["^\\cJ$", "\n", true],
    ["^[\\b]$", "\b", true],
    ["^\\/$", "/", true],
    ["^(?<year>\\d{4})-(?:\\d\\d)$", "2024-01", true],
    ["(?<=a)b", "ab", true],
    ["(?<!a)b", "ab", false],
    ["^a{2,3}$", "aaaa", false],
    ["[\\w-]+@x", "a-b@x", true],
    ["A", "a", false], // no flags: case matters
  ] as const)("%s on %j is %s", (pattern, text, expected) => {
    expect(new RegExp(pattern, "u").test(text)).toBe(expected);
    expect(search(pattern, text)).toBe(expected);
  });

  it("tries matches at code point boundaries only, as Python's re.search (V8 also tries inside a surrogate pair)", () => {
    expect(search("\\B", "a😀a")).toBe(false);
    expect(search("(a)*?\\Ba*", "a😀a")).toBe(false);
    expect(/\B/u.test("a😀a")).toBe(true); // V8's answer, which we do not follow
    expect(search("\\B", "😀")).toBe(true); // start and emoji: neither is a word character
  });

  it("runs the catastrophic pattern in linear time", () => {
    const started = performance.now();
    expect(search(EVIL, EVIL_TEXT)).toBe(false);
    expect(search(EVIL, `${"a".repeat(100_000)}!`)).toBe(false);
    expect(search("(x+x+)+y", "x".repeat(50_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("agrees with RegExp on generated safe patterns", () => {
    // The oracle tries a match at every code point boundary, as the specification and Python's
    // re.search do. V8's own search also tries the middle of a surrogate pair, where `\B` holds
    // (/\B/u.test("a😀a") is true in V8, false in Python and for us): seed 1232654197 found it.
    const searchAtCodePoints = (regex: RegExp, text: string): boolean => {
      const sticky = new RegExp(regex.source, "uy");
      let index = 0;
      for (const ch of [...text, ""]) {
        sticky.lastIndex = index;
        if (sticky.test(text)) return true;
        index += ch.length;
      }
      return false;
    };
    const CHARS = ["a", "b", "1", " ", "é", "😀", "\n", "\u00a0", "-", "_", "Z"];
    const atom = fc.constantFrom(
      "a",
      "b",
      "1",
      "é",
      "😀",
      ".",
      "\\d",
      "\\D",
      "\\w",
      "\\W",
      "\\s",
      "\\S",
      "[ab]",
      "[^a1]",
      "[a-z]",
      "[\\s\\d]",
      "[^\\S]",
      "[é-😀]",
      "\\p{L}",
      "\\P{L}",
      "\\u00e9",
      "\\n",
      "\\-",
      "\\b",
      "\\B",
      "^",
      "$",
    );
    const quantifier = fc.constantFrom("", "", "*", "+", "?", "{1,2}", "*?", "+?", "{2}");
    const piece = fc.tuple(atom, quantifier).map(([a, q]) => (/^[\^$]|^\\[bB]$/.test(a) ? a : a + q));
    const seq = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
    const pattern = fc.oneof(
      seq,
      fc.tuple(seq, seq).map(([x, y]) => `${x}|${y}`),
      fc.tuple(seq, quantifier, seq).map(([x, q, y]) => `(${x})${q}${y}`),
      fc.tuple(seq, seq).map(([x, y]) => `(?:${x}|${y})+`),
    );
    const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 10 }).map((c) => c.join(""));
    fc.assert(
      fc.property(pattern, text, (p, t) => {
        let regex: RegExp;
        try {
          regex = new RegExp(p, "u");
        } catch {
          expect(linearPattern(p).kind).toBe("invalid");
          return;
        }
        expect(search(p, t)).toBe(searchAtCodePoints(regex, t));
      }),
      { numRuns: 2_000 },
    );
  });
});
