// `# stratum-ignore[FUZZ-…]: reason` silences a fuzz finding on its line (or the line below the
// comment); plain checking never calls such a suppression unused, since only a run can show it.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";
import { fuzzSpec } from "../../fuzzer/index";
import { EXAMPLES_DIR } from "../support/spec-examples";
import { notation } from "./support/corpus";

const ROUTING = readFileSync(resolve(EXAMPLES_DIR, "routing.stratum.yaml"), "utf8");
const LOOP_LINE = "        next: write\n";

describe("suppressing fuzz findings", () => {
  it("the routing example's loop is reported without a suppression", async () => {
    const { report } = await fuzzSpec(ROUTING);
    expect(report?.findings.map(notation)).toEqual(["FUZZ-UNBOUNDED-LOOP migrate/rollback:88"]);
  });

  it("a suppression at the end of the finding's line silences it, and checking does not call it unused", async () => {
    expect(ROUTING.split(LOOP_LINE).length).toBe(2);
    const text = ROUTING.replace(
      LOOP_LINE,
      "        next: write # stratum-ignore[FUZZ-UNBOUNDED-LOOP]: a person watches this flow\n",
    );
    expect(checkSpec(text).diagnostics).toEqual([]);
    const { report } = await fuzzSpec(text);
    expect(report?.findings).toEqual([]);
  });

  it("a suppression on its own line applies to the next line; elsewhere it silences nothing", async () => {
    const above = ROUTING.replace(
      LOOP_LINE,
      `        # stratum-ignore[FUZZ-UNBOUNDED-LOOP]: a person watches this flow\n${LOOP_LINE}`,
    );
    expect((await fuzzSpec(above)).report?.findings).toEqual([]);
    const elsewhere = ROUTING.replace(
      "      - id: escalate\n",
      "      - id: escalate # stratum-ignore[FUZZ-UNBOUNDED-LOOP]: not this line\n",
    );
    expect(checkSpec(elsewhere).diagnostics).toEqual([]);
    expect((await fuzzSpec(elsewhere)).report?.findings.map((f) => f.code)).toEqual(["FUZZ-UNBOUNDED-LOOP"]);
  });
});
