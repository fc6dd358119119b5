// The fuzzer bench's reading of the seeded-defect corpus: every spec is either a control
// (`# expect: none`, left out) or a defect whose expected finding is parsed in full.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefects } from "../../bench/fuzz-bench";

const CORPUS = resolve(import.meta.dirname, "../fuzzer/corpus");

describe("fuzz bench corpus", () => {
  it("reads every defect spec and leaves out the controls", () => {
    const files = readdirSync(CORPUS).filter((f) => f.endsWith(".stratum.yaml"));
    const controls = files.filter((f) => readFileSync(join(CORPUS, f), "utf8").startsWith("# expect: none"));
    const defects = loadDefects(CORPUS);
    expect(controls.length).toBeGreaterThan(0);
    expect(defects.map((d) => d.name).sort()).toEqual(files.filter((f) => !controls.includes(f)).sort());
    for (const d of defects) {
      expect(d.code).toMatch(/^FUZZ-[A-Z-]+$/);
      expect(d.flow).not.toBe("");
      expect(d.step === null || d.step.length > 0).toBe(true);
      expect(d.line).toBeGreaterThan(0);
    }
    const flowLevel = defects.find((d) => d.code === "FUZZ-FLOW-OUTPUT");
    expect(flowLevel?.step).toBeNull();
  });
});
