// The spec window of a flow's page (ui/views.ts specWindow) counts and cuts lines by offsets into
// the text: for any text, it is what splitting the text into lines gives — every line of a short
// spec, of a long one the 1,000 lines around the current step with a final newline.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { specWindow } from "../../ui/views";

const MAX_LINES = 1_000;

/** The window as first written, over `split`. */
function byLines(source: string, current: number | null): ReturnType<typeof specWindow> {
  const lines = source.replace(/\n$/, "").split("\n");
  if (lines.length <= MAX_LINES)
    return { source, first_line: 1, line_count: lines.length, current_step_line: current };
  const first = Math.min(Math.max(0, (current ?? 1) - 1 - MAX_LINES / 2), lines.length - MAX_LINES);
  return {
    source: `${lines.slice(first, first + MAX_LINES).join("\n")}\n`,
    first_line: first + 1,
    line_count: lines.length,
    current_step_line: current,
  };
}

describe("specWindow", () => {
  it("is the split text's window for any text and current line", () => {
    const line = fc.constantFrom("", "a", "  - id: s1", "\r", "x\r", "é");
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_200 }),
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.constantFrom("", "\n", "\n\n"),
        fc.option(fc.integer({ min: -5, max: 2_300 }), { nil: null }),
        (count, pattern, ending, current) => {
          const source =
            Array.from({ length: count }, (_, i) => pattern[i % pattern.length] ?? "").join("\n") + ending;
          expect(specWindow(source, current)).toEqual(byLines(source, current));
        },
      ),
      { numRuns: 300 },
    );
  });
});
