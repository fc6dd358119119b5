// How the judge reads its verifier's reply (docs/reference/runtime.md §25.3), as properties: the
// same verdict whether the JSON comes bare, fenced or inside prose; a citation accepted exactly
// when its path, resolved, is a file of the staged tree within its bucket.
import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StagedTree } from "../../../interpreter/flow/judge/staged-tree";
import { readT2Reply } from "../../../interpreter/flow/judge/t2";

const tree = () => new StagedTree(new Map([["log", "one\ntwo\n"]]), [], null);

describe("the verifier's reply", () => {
  it("gives the same verdict bare, fenced or surrounded by prose (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("met", "not_met", "ambiguous"),
        fc.integer({ min: 0, max: 10 }),
        fc.string(),
        fc.stringMatching(/^[^{}`]*$/),
        (verdict, confidence, reason, prose) => {
          const json = JSON.stringify({ predicate_id: "p1", verdict, confidence, reason, evidence: [] });
          const expected = { tier: "T2", verdict, confidence, reason };
          for (const text of [json, `\`\`\`json\n${json}\n\`\`\``, `${prose}\n${json}\n${prose}`]) {
            const read = readT2Reply(text, tree());
            expect(read).toEqual({ ok: true, record: expected, evidence: [] });
          }
        },
      ),
    );
  });

  it("accepts a citation exactly when it resolves to a staged file of its bucket (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("..", ".", "x", "log.txt", "artifacts", "modified"), { maxLength: 5 }),
        fc.constantFrom("artifacts", "modified"),
        (segments, bucket) => {
          const path = [bucket, ...segments].join("/");
          const source = `${path}:3`;
          const evidence = [{ source, quote: "two", tier: "T2" }];
          const read = readT2Reply(JSON.stringify({ verdict: "met", confidence: 9, evidence }), tree());
          const resolved = posix.normalize(path);
          // Out of its bucket is refused even when it lands on a staged file of the other.
          expect(read.ok).toBe(bucket === "artifacts" && resolved === "artifacts/log.txt");
          if (!read.ok) expect(read.errorType).toBe("CitationFormatError");
        },
      ),
      { numRuns: 500 },
    );
  });
});
