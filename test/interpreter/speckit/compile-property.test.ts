// Property: for arbitrary task directories and flow names the compiler never throws, answers `ok`
// with a document that loads back cleanly (one function and one step per task, ensures in order),
// and says `warnings` exactly when that document does not validate.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../../checker/check-spec";
import { compileSpeckit } from "../../../interpreter/speckit/compile";
import { wireToPlain } from "../../../interpreter/wire/encode";
import { MemoryWorkspace } from "../workspace/memory-workspace";
import { loadBack } from "./load-back";

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("a b", "x: y", "#", "'q'", '"dq"', "yes", "0.1", "\\", "\t", "é"),
);
const line = fc.oneof(
  text,
  text.map((t) => `# ${t}`),
  text.map((t) => `# Task: [P] ${t}`),
  fc.constant("## Acceptance Criteria"),
  text.map((t) => `- [ ] ${t}`),
  text.map((t) => `- [x] file ${t.replace(/\s/g, "") || "p"} exists`),
  fc.tuple(text, text).map(([p, n]) => `- [ ] file ${p.replace(/\s/g, "") || "p"} contains ${n}`),
  fc.constantFrom("- [ ] tests pass", "- [X] no lint errors"),
);
const file = fc.array(line, { maxLength: 8 }).map((ls) => ls.join("\n"));
const fileName = fc
  .string({ unit: fc.constantFrom("a", "B", "1", "-", " ", "_", ".", "é"), minLength: 1, maxLength: 5 })
  .map((s) => `${s}.md`);
const directory = fc.dictionary(fileName, file, { minKeys: 1, maxKeys: 4 });
const flowName = fc.oneof(fc.constant("tasks"), text);

describe("property: compiling arbitrary task directories", () => {
  it("answers ok or a documented error, with a clean document and honest warnings", () => {
    fc.assert(
      fc.property(directory, flowName, (files, flow) => {
        const fs = new MemoryWorkspace(
          Object.fromEntries(Object.entries(files).map(([name, content]) => [`/p/t/${name}`, content])),
        );
        const result = wireToPlain(compileSpeckit(fs, "/p", "t", flow)) as Record<string, unknown>;
        if (result.status === "error") {
          expect(result.error_type).toBe("step_id_collision");
          return;
        }
        expect(result.status).toBe("ok");
        const yaml = result.yaml as string;
        const loaded = loadBack(yaml);
        expect(loaded.problems).toEqual([]);
        const doc = loaded.value as {
          functions: Record<string, { ensure: string[] }>;
          flows: Record<string, { steps: { id: string }[] }>;
        };
        const steps = result.steps as { id: string; ensures: string[] }[];
        expect(Object.keys(doc.flows)).toEqual([flow]);
        expect(doc.flows[flow]?.steps.map((s) => s.id)).toEqual(steps.map((s) => s.id));
        for (const step of steps) {
          expect(doc.functions[step.id]?.ensure).toEqual([...step.ensures, "result.done == True"]);
        }
        const errors = checkSpec(yaml).errors.map((d) => `compiled spec: ${d.path}: ${d.message}`);
        expect(result.warnings).toEqual(errors.length > 0 ? errors : undefined);
      }),
      { numRuns: 300 },
    );
  });
});
