// The port of Python's shlex.split (host/parallel/shlex-split.ts) against cases recorded from
// Python itself (shlex-cases.json: hand-picked commands and random strings over quotes,
// backslashes, whitespace and shell metacharacters), and a round-trip property.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ShlexError, shlexSplit } from "../../../host/parallel/shlex-split";

interface Case {
  readonly input: string;
  readonly words?: readonly string[];
  readonly error?: string;
}

const recorded = JSON.parse(readFileSync(join(__dirname, "shlex-cases.json"), "utf8")) as {
  readonly cases: readonly Case[];
};

/** Python's shlex.quote: safe words as they are, others in single quotes. */
function quote(word: string): string {
  if (word === "") return "''";
  if (/^[\w@%+=:,./-]+$/u.test(word)) return word;
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}

describe("shlexSplit", () => {
  it("recorded cases are many and include both outcomes", () => {
    expect(recorded.cases.length).toBeGreaterThan(300);
    expect(recorded.cases.some((c) => c.error !== undefined)).toBe(true);
  });

  it.each(recorded.cases.map((c) => [JSON.stringify(c.input), c] as const))(
    "%s as Python splits it",
    (_, c) => {
      if (c.error !== undefined) {
        expect(() => shlexSplit(c.input)).toThrow(new ShlexError(c.error));
      } else {
        expect(shlexSplit(c.input)).toEqual(c.words);
      }
    },
  );

  it("keeps shell metacharacters as parts of words", () => {
    expect(shlexSplit("echo $(id) `id` > out; rm -rf / && x | y")).toEqual([
      "echo",
      "$(id)",
      "`id`",
      ">",
      "out;",
      "rm",
      "-rf",
      "/",
      "&&",
      "x",
      "|",
      "y",
    ]);
  });

  it("splits what shlex.quote joined back into the same words", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { maxLength: 6 }), (words) => {
        expect(shlexSplit(words.map(quote).join(" "))).toEqual(words);
      }),
    );
  });
});
