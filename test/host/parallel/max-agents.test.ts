// STRATUM_MAX_AGENTS: the server's cap on the agents one parallel step runs at once; by default
// the number of CPUs; a value that is not a whole number from 1 is ignored with a warning.
import { describe, expect, it } from "vitest";
import { maxAgentsOf } from "../../../host/parallel/max-agents";

describe("maxAgentsOf", () => {
  it("is the number of CPUs when the variable is unset or empty", () => {
    expect(maxAgentsOf({}, 8)).toEqual({ value: 8, warning: null });
    expect(maxAgentsOf({ STRATUM_MAX_AGENTS: " " }, 3)).toEqual({ value: 3, warning: null });
  });

  it("is the variable's whole number from 1", () => {
    expect(maxAgentsOf({ STRATUM_MAX_AGENTS: "2" }, 8)).toEqual({ value: 2, warning: null });
    expect(maxAgentsOf({ STRATUM_MAX_AGENTS: " 64 " }, 8)).toEqual({ value: 64, warning: null });
  });

  it("ignores anything else, saying so", () => {
    for (const bad of ["0", "-1", "1.5", "two", "1e3", "0x10", "99999999999999999999"]) {
      const got = maxAgentsOf({ STRATUM_MAX_AGENTS: bad }, 4);
      expect(got.value, bad).toBe(4);
      expect(got.warning, bad).toBe(
        `STRATUM_MAX_AGENTS=${JSON.stringify(bad)} is not a whole number from 1; at most 4 agents run at once per parallel step (the number of CPUs)`,
      );
    }
  });

  it("is at least 1 whatever the CPU count says", () => {
    expect(maxAgentsOf({}, 0).value).toBe(1);
  });
});
