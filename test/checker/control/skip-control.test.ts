// `checkSpec(text, { control: false })`, what the runtime's spec cache checks with: the control
// model's warnings are left out and nothing else changes (the same errors, the same IR), and a
// suppression naming a control code is not reported unused when the control model did not run.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { SpecCache } from "../../../interpreter/engine/spec-cache";
import { CONTROL_CODES, specOf } from "./support";

const FIXTURES = join(__dirname, "../rule-fixtures");

/** Every rule fixture's text: valid and invalid specs of every diagnostic code. */
function fixtureTexts(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const code of readdirSync(FIXTURES, { withFileTypes: true })) {
    if (!code.isDirectory()) continue;
    for (const file of readdirSync(join(FIXTURES, code.name)))
      if (file.endsWith(".stratum.yaml"))
        out.push({
          name: `${code.name}/${file}`,
          text: readFileSync(join(FIXTURES, code.name, file), "utf8"),
        });
  }
  return out;
}

/** `lint` is named by the fall-through route only, which no run takes: SPEC-STEP-DEAD. */
const DEAD = specOf([
  [
    "f",
    ["{id: build, function: work, next: ship}", "{id: lint, function: work}", "{id: ship, function: work}"],
  ],
]);

describe("checking without the control model", () => {
  it("reports the control model's warnings only when it runs", () => {
    const full = checkSpec(DEAD);
    expect(full.valid).toBe(true);
    expect(full.warnings.some((d) => CONTROL_CODES.has(d.code))).toBe(true);
    const skipped = checkSpec(DEAD, { control: false });
    expect(skipped.valid).toBe(true);
    expect(skipped.diagnostics.filter((d) => CONTROL_CODES.has(d.code))).toEqual([]);
    expect(skipped.ir?.flows.get("f")?.steps.map((s) => s.id)).toEqual(["build", "lint", "ship"]);
  });

  it("gives every rule fixture the same errors and the same validity", () => {
    const texts = fixtureTexts();
    expect(texts.length).toBeGreaterThan(100);
    for (const { name, text } of texts) {
      const full = checkSpec(text);
      const skipped = checkSpec(text, { control: false });
      expect({ name, valid: skipped.valid, errors: skipped.errors }).toEqual({
        name,
        valid: full.valid,
        errors: full.errors,
      });
      expect(skipped.warnings).toEqual(full.warnings.filter((d) => !CONTROL_CODES.has(d.code)));
    }
  });

  it("does not call a suppression of a control code unused when the model did not run", () => {
    const text = DEAD.replace("next: ship}", "next: ship} # stratum-ignore[SPEC-STEP-DEAD]: checked by hand");
    const codes = (options: { control?: boolean }) => checkSpec(text, options).diagnostics.map((d) => d.code);
    expect(codes({})).toEqual([]);
    expect(codes({ control: false })).toEqual([]);
    // The same comment on a clean step is unused when the model ran.
    const clean = DEAD.replace("next: ship}", "}").replace(
      "{id: ship, function: work}",
      "{id: ship, function: work} # stratum-ignore[SPEC-STEP-DEAD]: checked by hand",
    );
    expect(checkSpec(clean).diagnostics.map((d) => d.code)).toContain("SUPPRESS-UNUSED");
    expect(checkSpec(clean, { control: false }).diagnostics.map((d) => d.code)).not.toContain(
      "SUPPRESS-UNUSED",
    );
  });

  it("is what the runtime's spec cache keeps: the errors and the IR", () => {
    const cached = new SpecCache().check(DEAD);
    expect(cached.errors).toEqual([]);
    expect(cached.ir?.flows.has("f")).toBe(true);
  });
});
