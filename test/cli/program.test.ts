// In-process tests of the CLI wrapper: exit codes and the internal-error guard.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../cli/eval/batch";
import { runCli } from "../../cli/program";

function buffers() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) }, out, err };
}

describe("runCli", () => {
  it("evaluates in process and returns the exit code", async () => {
    const b = buffers();
    expect(await runCli(["eval", "[x] * 2", "--bindings", '{"x": 1.5}'], b.io)).toBe(0);
    expect(b.out.join("")).toBe("[1.5, 1.5]\n");
  });

  it("turns an unexpected exception into 'internal error' and exit 3 (docs/reference/runtime.md §21.2)", async () => {
    const io = {
      out: () => {
        throw new Error("disk full");
      },
      err: (s: string) => void errors.push(s),
    };
    const errors: string[] = [];
    expect(await runCli(["eval", "1"], io)).toBe(3);
    expect(errors.join("")).toBe("stratumc: internal error: disk full\n");
  });

  it("uses the program name it is given in messages", async () => {
    const b = buffers();
    expect(await runCli(["eval"], b.io, "stratum-mcp")).toBe(2);
    expect(b.err.join("")).toBe("stratum-mcp: missing expression (or --batch FILE)\n");
  });
});

describe("runBatch", () => {
  it("writes exactly one JSON line per input line, whatever the lines hold (property)", async () => {
    const line = fc.oneof(
      fc.string(),
      fc
        .record({ expr: fc.constantFrom("1", "x", "1 +", "[", "1/0", "'a' * 3", "None.x") })
        .map((o) => JSON.stringify(o)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 8 }), async (lines) => {
        const written: string[] = [];
        async function* source() {
          yield* lines;
        }
        await runBatch(source(), null, (s) => void written.push(s));
        expect(written).toHaveLength(lines.length);
        for (const w of written) {
          expect(w.endsWith("\n")).toBe(true);
          const parsed = JSON.parse(w) as Record<string, unknown>;
          expect(typeof (parsed.repr ?? parsed.error)).toBe("string");
        }
      }),
      { numRuns: 50 },
    );
  });
});
