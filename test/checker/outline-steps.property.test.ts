// outlineSteps reads a window of a flow's steps from the spec with the other items cut out: for
// any valid spec of the shapes it follows, each step it gives is the checked IR's (id, kind,
// target, attempts and line), whatever the window; for a shape it does not follow it gives null.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";
import { LineMap, outlineSteps } from "../../checker/index";
import { outlineStepsByLines } from "./outline-steps-reference";

type Kind = "function" | "gate" | "inline" | "flow";

interface GenStep {
  readonly kind: Kind;
  readonly retries: number | null;
  readonly oneLine: boolean;
  readonly comment: boolean;
}

const step: fc.Arbitrary<GenStep> = fc.record({
  kind: fc.constantFrom<Kind>("function", "gate", "inline", "flow"),
  retries: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
  oneLine: fc.boolean(),
  comment: fc.boolean(),
});

/** The step items of `main`, at `indent` spaces, with the fields of each kind. */
function items(steps: readonly GenStep[], indent: number): string[] {
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  steps.forEach((s, i) => {
    if (s.comment) lines.push(`${pad}# step ${i}`, "");
    const fields: [string, string][] = [["id", `s${i}`]];
    if (s.kind === "function") fields.push(["function", "work"]);
    if (s.kind === "gate")
      fields.push(["function", "review"], ["on_approve", "~"], ["on_revise", "s0"], ["on_kill", "~"]);
    if (s.kind === "inline") {
      fields.push(["intent", `"do part ${i}"`]);
      if (s.retries !== null) fields.push(["retries", String(s.retries)]);
    }
    if (s.kind === "flow") fields.push(["flow", "sub"]);
    if (s.oneLine) lines.push(`${pad}- {${fields.map(([k, v]) => `${k}: ${v}`).join(", ")}}`);
    else for (const [j, [k, v]] of fields.entries()) lines.push(`${pad}${j === 0 ? "- " : "  "}${k}: ${v}`);
  });
  return lines;
}

function spec(steps: readonly GenStep[], subFirst: boolean, itemIndent: number, workRetries: number): string {
  const sub = ["  sub:", "    input: {}", "    steps:", "      - id: only", '        intent: "inside"'];
  const main = ["  main:", "    input: {}", "    steps:", ...items(steps, itemIndent)];
  return `${[
    'version: "0.2"',
    "contracts:",
    "  R:",
    "    name: {type: string}",
    "functions:",
    "  work:",
    "    mode: infer",
    '    intent: "work"',
    "    input: {}",
    "    output: R",
    `    retries: ${workRetries}`,
    "  review:",
    "    mode: gate",
    "flows:",
    ...(subFirst ? [...sub, ...main] : [...main, ...sub]),
  ].join("\n")}\n`;
}

describe("outlineSteps", () => {
  it("gives the checked IR's steps for any window of a plainly written flow", () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.boolean(),
        fc.constantFrom(4, 6),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(30),
        fc.integer({ min: 1, max: 30 }),
        (steps, subFirst, itemIndent, workRetries, offset, limit) => {
          // The first step is a function step: the gates' revise route goes back to it.
          const all: GenStep[] = [
            { kind: "function", retries: null, oneLine: false, comment: false },
            ...steps,
          ];
          const text = spec(all, subFirst, itemIndent, workRetries);
          const checked = checkSpec(text, { control: false });
          expect(checked.errors).toEqual([]);
          const flow = checked.ir?.flows.get("main");
          if (flow === undefined) throw new Error("no flow main");
          const lines = new LineMap(text);
          const outline = outlineSteps(text, "main", offset, limit);
          expect(outline).not.toBeNull();
          const from = Math.min(offset, all.length);
          expect(outline?.total).toBe(flow.steps.length);
          expect(outline?.offset).toBe(from);
          expect(outline?.steps).toEqual(
            flow.steps.slice(from, from + limit).map((s) => ({
              id: s.id,
              kind: s.kind,
              function: s.function,
              flow: s.flow,
              retries: s.retries,
              line: lines.position(s.range.start).line,
            })),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("agrees with the line-array scan on specs with lines added, removed and changed", () => {
    // Lines a hand-edited spec may hold, at the indentations the scan looks at.
    const odd = fc.constantFrom(
      "",
      "   ",
      "# note",
      "      # note",
      "\r",
      "  \r",
      "      -",
      "      - ",
      "      -x",
      "    -",
      "    steps:",
      "    steps: # again",
      "  main:",
      "flows:",
      "flows: # more",
      "  other: {}",
      "---",
      "\t- id: t",
      "x: 1",
      "        retries: 2",
    );
    const edit = fc.record({
      at: fc.nat(200),
      kind: fc.constantFrom("insert", "remove", "indent", "outdent"),
      line: odd,
    });
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom(4, 6),
        fc.array(edit, { maxLength: 4 }),
        fc.boolean(),
        fc.nat(14),
        fc.integer({ min: 0, max: 14 }),
        (steps, subFirst, itemIndent, edits, trailingNewline, offset, limit) => {
          const all: GenStep[] = [
            { kind: "function", retries: null, oneLine: false, comment: false },
            ...steps,
          ];
          const lines = spec(all, subFirst, itemIndent, 2).split("\n");
          for (const e of edits) {
            const at = e.at % (lines.length + 1);
            if (e.kind === "insert") lines.splice(at, 0, e.line);
            else if (e.kind === "remove") lines.splice(at, 1);
            else if (e.kind === "indent") lines[at] = `  ${lines[at] ?? ""}`;
            else lines[at] = (lines[at] ?? "").replace(/^ {2}/, "");
          }
          const text = lines.join("\n").replace(/\n$/, "") + (trailingNewline ? "\n" : "");
          const pick = (total: number): number => Math.min(offset, total);
          expect(outlineSteps(text, "main", pick, limit)).toEqual(
            outlineStepsByLines(text, "main", pick, limit),
          );
        },
      ),
      { numRuns: 400 },
    );
  });

  it("gives null for what its scan does not follow", () => {
    const steps: GenStep[] = [{ kind: "function", retries: null, oneLine: false, comment: false }];
    const text = spec(steps, false, 6, 2);
    expect(outlineSteps(text, "main", 0, 10)).not.toBeNull();
    // A document marker, a tab in an indentation, steps in one flow sequence, an unknown flow.
    expect(outlineSteps(`---\n${text}`, "main", 0, 10)).toBeNull();
    expect(
      outlineSteps(text.replace("    steps:\n      - id", "    steps:\n\t- id"), "main", 0, 10),
    ).toBeNull();
    expect(
      outlineSteps(
        text.replace(/steps:\n {6}- id: s0\n {8}function: work/, "steps: [{id: s0, function: work}]"),
        "main",
        0,
        10,
      ),
    ).toBeNull();
    expect(outlineSteps(text, "other", 0, 10)).toBeNull();
  });
});
