// The fixtures of the scenario test file codes (TEST-*): each folder of fixtures/ is named after a
// code, its valid files check clean and its invalid files report exactly their annotations (the
// notation of test/checker/rule-fixtures/README.md). They are checked by checkScenario with the
// spec read from disk relative to the fixture, as `stratumc check` reads it.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../../checker/catalogue";
import { checkScenario } from "../../../checker/index";
import { notation, parseAnnotations } from "../rule-fixtures/tester";

const ROOT = join(import.meta.dirname, "fixtures");
const CODES = readdirSync(ROOT, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

function check(path: string) {
  const text = readFileSync(path, "utf8");
  return checkScenario(text, (spec) => {
    try {
      return { ok: true, text: readFileSync(resolve(dirname(path), spec), "utf8") };
    } catch {
      return { ok: false, reason: "file not found" };
    }
  });
}

describe("scenario test file codes", () => {
  it("every code of the scenario family has a fixture folder, and every folder is such a code", () => {
    const family = [...CATALOGUE.values()].filter((r) => r.family === "scenario").map((r) => r.code);
    expect(CODES).toEqual([...family].sort());
  });
});

for (const code of CODES) {
  describe(code, () => {
    const files = readdirSync(join(ROOT, code)).filter((f) => f.endsWith(".stratum-test.yaml"));
    it("has a valid and an invalid fixture", () => {
      expect(files.some((f) => f.startsWith("valid"))).toBe(true);
      expect(files.some((f) => f.startsWith("invalid"))).toBe(true);
    });
    for (const name of files) {
      const path = join(ROOT, code, name);
      it(`${name} reports exactly its annotations`, () => {
        const text = readFileSync(path, "utf8");
        const expected = parseAnnotations(text, name).map(notation).sort();
        const got = check(path).diagnostics.map(notation).sort();
        expect(got).toEqual(expected);
        if (name.startsWith("valid")) expect(got).toEqual([]);
        else expect(got.some((g) => g.startsWith(`${code} `))).toBe(true);
      });
    }
  });
}
