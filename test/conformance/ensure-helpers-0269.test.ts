// The reference's ensure helpers plan_completion and vocabulary_compliance, replayed: every case of
// recorded/ensure-helpers-0269.jsonl (scripts/record-0269-ensure-helpers.py ran the reference's own
// code on them) is checked and evaluated here with its files in a scratch working root, and must
// give the reference's answer: the value, each violation of a ValueError([...]) in order, or the
// error's text. The checker must stay silent where the reference answers, and may only report a
// type error where the reference raises.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkExpression } from "../../checker/expr/check-expression";
import { nodeFileSystem } from "../../host/index";
import { compileExpression } from "../../interpreter/eval/compile";
import { evaluate } from "../../interpreter/eval/evaluate";
import { PyError } from "../../stdlib/values/errors";
import { repr } from "../../stdlib/values/repr";

interface RecordedCase {
  readonly name: string;
  readonly files: Readonly<Record<string, string>>;
  readonly expr: string;
  readonly outcome:
    | { readonly value: string }
    | { readonly violations: readonly string[] }
    | { readonly error: string };
}

const cases = readFileSync(new URL("recorded/ensure-helpers-0269.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as RecordedCase | { header: true })
  .filter((c): c is RecordedCase => !("header" in c));

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "ensure-helpers-")));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Outcome = RecordedCase["outcome"];

function run(c: RecordedCase, root: string): Outcome {
  const checked = checkExpression(c.expr, { kind: "ensure", names: new Map(), owner: "Step 's'" });
  if (checked.expr === null) throw new Error(`${c.name}: does not parse`);
  try {
    const value = evaluate(compileExpression(checked.expr), new Map(), {
      files: { root, fs: nodeFileSystem },
    });
    return { value: repr(value) };
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return e.violations === null ? { error: `${e.kind}: ${e.message}` } : { violations: e.violations };
  }
}

/** Python's UnicodeDecodeError is a ValueError; the expression language knows the base kind only. */
function expected(outcome: Outcome): Outcome {
  if ("error" in outcome) return { error: outcome.error.replace(/^UnicodeDecodeError:/, "ValueError:") };
  return outcome;
}

describe("plan_completion and vocabulary_compliance against the 0.2.69 reference", () => {
  it("has the recorded cases", () => {
    expect(cases.length).toBe(72);
  });
  cases.forEach((c, i) => {
    it(`${c.name}: ${c.expr}`, () => {
      const root = join(scratch, String(i));
      mkdirSync(root, { recursive: true });
      for (const [path, data] of Object.entries(c.files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), Buffer.from(data, "base64"));
      }
      expect(run(c, root)).toEqual(expected(c.outcome));
      const errors = checkExpression(c.expr, { kind: "ensure", names: new Map(), owner: "Step 's'" })
        .diagnostics.filter((d) => d.severity === "error")
        .map((d) => d.code);
      if ("error" in c.outcome) expect(errors.filter((code) => code !== "EXPR-TYPE")).toEqual([]);
      else expect(errors).toEqual([]);
    });
  });
});
