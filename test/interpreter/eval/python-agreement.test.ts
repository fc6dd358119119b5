// Re-checks the expectations of PYTHON_CASES against CPython itself, with the same names bound as
// globals (so comprehensions see them, as our lexical scoping does).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { PYTHON_CASES } from "./cases";
import { FIXTURE_JSON } from "./support";

const SCRIPT = `
import json, sys, types, warnings
warnings.simplefilter("ignore")
data = json.loads(sys.stdin.read())
g = {"true": True, "false": False, "null": None}
for k, v in data["names"].items():
    val = json.loads(v)
    g[k] = types.SimpleNamespace(**val) if isinstance(val, dict) else val
out = []
for e in data["exprs"]:
    try:
        out.append(repr(eval(e, dict(g))))
    except Exception as ex:
        out.append(f"{type(ex).__name__}: {ex}")
sys.stdout.write(json.dumps(out))
`;

describe("CPython agreement", () => {
  it("python3 produces every expected outcome of PYTHON_CASES", () => {
    const input = JSON.stringify({ names: FIXTURE_JSON, exprs: PYTHON_CASES.map(([e]) => e) });
    const stdout = execFileSync("python3", ["-c", SCRIPT], { input, encoding: "utf8" });
    const outcomes = JSON.parse(stdout) as string[];
    const mismatches = PYTHON_CASES.flatMap(([e, expected], i) =>
      outcomes[i] === expected ? [] : [`${e}: python ${outcomes[i]}, table ${expected}`],
    );
    expect(mismatches).toEqual([]);
  });
});
