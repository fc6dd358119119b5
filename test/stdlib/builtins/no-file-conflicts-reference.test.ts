// Differential test of no_file_conflicts against the reference's own `_no_file_conflicts`, run by
// python3 from a git clone of the reference named by STRATUM_REFERENCE_GIT (skipped when there is
// none). The reference gets our three fixes (docs/reference/language.md §10.9) applied around it: its second
// unnamed task is renamed by its own index in the source text, null fields are removed from the input
// and a string files_owned is wrapped in a list. Everything else, errors included, must match.
import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { callBuiltin } from "../../../stdlib/builtins/attributes";
import { fromJsonValue } from "../../../stdlib/values/json";
import { env, outcome } from "./support";

const REFERENCE_GIT = process.env.STRATUM_REFERENCE_GIT ?? "/work/.mirror/smartmemory+stratum/repo";
const REFERENCE_FILE = "ecc1aa5:stratum-mcp/src/stratum_mcp/executor.py";

function referenceSource(): string | null {
  const r = spawnSync("git", ["-C", REFERENCE_GIT, "show", REFERENCE_FILE], { encoding: "utf8" });
  return r.status === 0 ? r.stdout : null;
}

const SCRIPT = `
import ast, json, sys
from typing import Any
req = json.load(sys.stdin)
source = req['source']
node = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == '_no_file_conflicts')
text = ast.get_source_segment(source, node)
for old, new in [('for t2 in task_list[i + 1:]:', 'for j, t2 in enumerate(task_list[i + 1:], i + 1):'),
                 ('f"task-{i+1}"', 'f"task-{j}"')]:
    assert text.count(old) == 1, old
    text = text.replace(old, new)
scope = {'Any': Any}
exec(text, scope)
reference = scope['_no_file_conflicts']
def fixed_input(tasks):
    if not isinstance(tasks, list):
        return tasks
    out = []
    for t in tasks:
        if isinstance(t, dict):
            t = {k: v for k, v in t.items() if not (k in ('depends_on', 'files_owned') and v is None)}
            if isinstance(t.get('files_owned'), str):
                t['files_owned'] = [t['files_owned']]
        out.append(t)
    return out
def run(tasks):
    try:
        return repr(reference(fixed_input(tasks)))
    except Exception as e:
        return '%s: %s' % (type(e).__name__, e)
print(json.dumps([run(c) for c in req['cases']]))
`;

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

// JSON only (what results are made of). Files are strings, so sorting shared files never depends
// on Python's hash order.
const id = fc.constantFrom<unknown>("a", "b", "c", "", "task-1", 1, true, null, [1]);
const list = fc.oneof(
  fc.array(id, { maxLength: 3 }),
  fc.constantFrom<unknown>(null, "a", "ab", 5, [["a"]], { a: 1 }),
);
const files = fc.oneof(
  fc.array(fc.constantFrom("x.py", "y.py", "z"), { maxLength: 3 }),
  fc.constantFrom<unknown>(null, "x.py", "xy", 5, [["x.py"]], { "x.py": 1 }),
);
const task = fc.oneof(
  { weight: 12, arbitrary: fc.record({ id, depends_on: list, files_owned: files }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(1, "s", null, [], {}) },
);
const argument = fc.oneof(
  { weight: 20, arbitrary: fc.array(task, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, 5, "ab", "", {}, { a: 1 }) },
);

const source = referenceSource();

describe.skipIf(source === null)(`no_file_conflicts against the reference (seed ${seed})`, () => {
  it("gives the reference's result or error for the same input", () => {
    const cases = fc.sample(argument, { numRuns: 3000, seed });
    const r = spawnSync("python3", ["-c", SCRIPT], {
      input: JSON.stringify({ source, cases }),
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
    const expected = JSON.parse(r.stdout) as string[];
    const mismatches = cases.flatMap((c, i) => {
      const ours = outcome(() => callBuiltin("no_file_conflicts", [fromJsonValue(c)], null, env()));
      return ours === expected[i] ? [] : [`${JSON.stringify(c)}: ours ${ours}, reference ${expected[i]}`];
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
    // The sample covers passes, conflicts and the reference's TypeErrors.
    const kinds = new Set(expected.map((e) => e.split(":")[0]));
    expect([...kinds].sort()).toEqual(["True", "TypeError", "ValueError"]);
  });
});
