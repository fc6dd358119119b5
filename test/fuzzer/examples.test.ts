// The examples run as the fuzzer explores them: no error finding in any of them; the one warning
// kept on purpose (the routing example's unbounded repair loop, explained in its comments).
import { describe, expect, it } from "vitest";
import { fuzzSpec } from "../../fuzzer/index";
import { cleanExamples } from "../support/spec-examples";
import { notation } from "./support/corpus";

const EXPECTED_WARNINGS: Readonly<Record<string, readonly string[]>> = {
  "routing.stratum.yaml": ["FUZZ-UNBOUNDED-LOOP migrate/rollback:88"],
};

describe("examples/ under the fuzzer", () => {
  it.each(cleanExamples().map((e) => [e.name, e] as const))(
    "%s: no error finding, only the explained warnings",
    async (name, example) => {
      const { report } = await fuzzSpec(example.text);
      expect(report).not.toBeNull();
      const findings = report?.findings ?? [];
      expect(findings.filter((f) => f.severity === "error").map(notation)).toEqual([]);
      expect(findings.map(notation)).toEqual(EXPECTED_WARNINGS[name] ?? []);
      for (const flow of Object.values(report?.soundness ?? {})) {
        expect(flow.option_to_complete).not.toBe("violated");
        expect(flow.proper_completion).not.toBe("violated");
      }
    },
  );
});
