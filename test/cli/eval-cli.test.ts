// `stratumc eval` end to end, through the built bundle.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, stratumc } from "./run-cli";

beforeAll(ensureBundle);

function evalOk(expr: string, bindings?: object | string): string {
  const args = ["eval", expr];
  if (bindings !== undefined)
    args.push("--bindings", typeof bindings === "string" ? bindings : JSON.stringify(bindings));
  const r = stratumc(args);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
}

describe("stratumc eval: values", () => {
  it("prints Python's repr of the value", () => {
    expect(evalOk("1 + 1")).toBe("2\n");
    expect(evalOk("[1, 2.0, 'a', None, True, (1,), ()]")).toBe("[1, 2.0, 'a', None, True, (1,), ()]\n");
    expect(evalOk("{'a': 1e16, 'b': 0.1 + 0.2, \"c'\": 1 / 3}")).toBe(
      "{'a': 1e+16, 'b': 0.30000000000000004, \"c'\": 0.3333333333333333}\n",
    );
    expect(evalOk("'it' + \"'s\"")).toBe(`"it's"\n`);
    expect(evalOk("sorted(['b', 'a'], reverse=True)")).toBe("['b', 'a']\n");
    expect(stratumc(["eval", "--", "-1 + 2"]).stdout).toBe("1\n");
  });

  it("keeps the int/float distinction and exact big integers of the bindings", () => {
    expect(evalOk("x * 2", '{"x": 1.0}')).toBe("2.0\n");
    expect(evalOk("x * 2", '{"x": 1}')).toBe("2\n");
    expect(evalOk("n + 1", '{"n": 9007199254740993}')).toBe("9007199254740994\n");
  });

  it("binds a result object as a namespace and allows attribute access on nested dicts", () => {
    expect(evalOk("result", { result: { a: 1, b: "x" } })).toBe("namespace(a=1, b='x')\n");
    expect(evalOk("result.a.b", { result: { a: { b: [1, 2] } } })).toBe("[1, 2]\n");
    expect(evalOk("d", { d: { a: 1 } })).toBe("{'a': 1}\n");
    expect(evalOk("d.a.b", { d: { a: { b: null } } })).toBe("None\n");
  });

  it("reads $.input and $.steps paths from --input and --steps", () => {
    const input = JSON.stringify({ do_skip: true, name: "bob" });
    const steps = JSON.stringify({ s1: { skip: true, label: "x", nested: { a: 1 } }, s2: null });
    const exprs = [
      "$.input.do_skip == True",
      "$.input.missing == None",
      "$.steps.s2.output.skip == None",
      "$.steps.s3.output.x == None",
      "$.steps.s1.output.nested == {'a': 1}",
      "len($.steps.s1.output.label) == 1",
      "$.input.name.upper() == 'BOB'",
    ];
    for (const e of exprs) {
      const r = stratumc(["eval", e, "--input", input, "--steps", steps]);
      expect({ e, out: r.stdout, status: r.status }).toEqual({ e, out: "True\n", status: 0 });
    }
    expect(stratumc(["eval", "$.input.name", "--input", input]).stdout).toBe("'bob'\n");
  });
});

describe("stratumc eval: errors and exit codes", () => {
  it("exits 1 with <Kind>: <message> on a run-time error", () => {
    const cases: [string, string, string][] = [
      ["1 // 0", "{}", "ZeroDivisionError: integer division or modulo by zero\n"],
      ["d['zz']", '{"d": {"a": 1}}', "KeyError: 'zz'\n"],
      ["xs[5]", '{"xs": [1]}', "IndexError: list index out of range\n"],
      [
        "result.missing",
        '{"result": {"a": 1}}',
        "AttributeError: 'types.SimpleNamespace' object has no attribute 'missing'\n",
      ],
      ["int(s)", '{"s": "abc"}', "ValueError: invalid literal for int() with base 10: 'abc'\n"],
    ];
    for (const [expr, bindings, stderr] of cases) {
      const r = stratumc(["eval", expr, "--bindings", bindings]);
      expect({ expr, status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        expr,
        status: 1,
        stdout: "",
        stderr,
      });
    }
  });

  it("exits 2 with a located diagnostic and a code frame for a type error", () => {
    const r = stratumc(["eval", "x + 'a'", "--bindings", '{"x": 1}']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      [
        "<expr>:1:1: error: unsupported operand type(s) for +: 'int' and 'str' (this always fails at run time) [EXPR-TYPE]",
        " 1 | x + 'a'",
        "   | ^~~~~~~",
        "",
      ].join("\n"),
    );
  });

  it("counts columns in code points after astral characters", () => {
    const r = stratumc(["eval", "'😀😀' > 1"]);
    expect(r.status).toBe(2);
    const first = r.stderr.split("\n")[0];
    expect(first).toBe(
      "<expr>:1:1: error: '>' not supported between instances of 'str' and 'int' (this always fails at run time) [EXPR-TYPE]",
    );
    expect(r.stderr.split("\n")[2]).toBe("   | ^~~~~~~~");
  });

  it("exits 2 with a located diagnostic for a syntax error", () => {
    const r = stratumc(["eval", "len(x) +"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      [
        "<expr>:1:9: error: Cannot compile expression 'len(x) +': unexpected end of expression [EXPR-SYNTAX]",
        " 1 | len(x) +",
        "   |         ^",
        "",
      ].join("\n"),
    );
  });

  it("prints a did-you-mean suggestion as a help line", () => {
    const r = stratumc(["eval", "reslt.a", "--bindings", '{"result": {"a": 1}}']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      [
        "<expr>:1:1: error: name 'reslt' is not defined [EXPR-UNKNOWN-NAME]",
        " 1 | reslt.a",
        "   | ^~~~~",
        "  help: Did you mean 'result'?",
        "",
      ].join("\n"),
    );
  });

  it("prints warnings but still evaluates", () => {
    const r = stratumc(["eval", "s.upper", "--bindings", '{"s": "a"}']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("<built-in method upper of str object>\n");
    expect(r.stderr).toMatch(
      /^<expr>:1:\d+: warning: method 'str\.upper' is used without being called \[EXPR-METHOD-NOT-CALLED\]\n/,
    );
  });

  it("rejects bad --bindings JSON with one line naming the option and the position", () => {
    const r = stratumc(["eval", "x", "--bindings", '{"x": 1,}']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toHaveLength(2); // one line and its newline
    expect(r.stderr).toMatch(/^stratumc: --bindings: invalid JSON: .*\b(position|column)\b.*\d/);
    const notObject = stratumc(["eval", "x", "--bindings", "[1]"]);
    expect(notObject.status).toBe(2);
    expect(notObject.stderr).toBe("stratumc: --bindings: expected a JSON object, got array\n");
    const badInput = stratumc(["eval", "1", "--input", "nope"]);
    expect(badInput.status).toBe(2);
    expect(badInput.stderr).toMatch(/^stratumc: --input: invalid JSON: /);
  });

  it("reports usage errors with exit 2 and no stack trace", () => {
    for (const args of [
      ["eval"],
      ["eval", "1", "--batch", "x.jsonl"],
      ["eval", "1", "--nope"],
      ["frobnicate"],
    ]) {
      const r = stratumc(args);
      expect({ args, status: r.status }).toEqual({ args, status: 2 });
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const root = stratumc(["eval", "1", "--root", "/definitely/not/here"]);
    expect(root.status).toBe(2);
    expect(root.stderr).toBe("stratumc: --root: no such directory: /definitely/not/here\n");
  });

  it("prints the version", () => {
    const r = stratumc(["--version"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe("stratumc eval: file builtins and --root", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "stratumc-root-"));
    mkdirSync(join(dir, "root/src"), { recursive: true });
    writeFileSync(join(dir, "root/src/foo.ts"), "export const greeting = 'hello world';\n");
    writeFileSync(join(dir, "outside.txt"), "secret\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("resolves paths against --root and confines them to it", () => {
    const root = join(dir, "root");
    const run = (expr: string) => stratumc(["eval", expr, "--root", root]).stdout;
    expect(run("file_exists('src/foo.ts')")).toBe("True\n");
    expect(run("file_exists('src')")).toBe("False\n"); // a directory is not a regular file
    expect(run("file_contains('src/foo.ts', 'hello world')")).toBe("True\n");
    expect(run("file_contains('src/foo.ts', 'goodbye')")).toBe("False\n");
    expect(run("file_exists('../outside.txt')")).toBe("False\n");
    expect(run(`file_exists('${join(dir, "outside.txt")}')`)).toBe("False\n");
    expect(run(`file_exists('${join(root, "src/foo.ts")}')`)).toBe("True\n");
  });

  it("uses the current directory when --root is absent", () => {
    expect(stratumc(["eval", "file_exists('src/foo.ts')"], { cwd: join(dir, "root") }).stdout).toBe("True\n");
    expect(stratumc(["eval", "file_exists('src/foo.ts')"], { cwd: dir }).stdout).toBe("False\n");
  });
});
