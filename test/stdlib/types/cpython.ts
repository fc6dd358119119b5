// Test helper: evaluates Python expressions with CPython 3 and returns, for each, the TypeError
// (or other exception) message, or null when it succeeds. Used to confirm rule messages.
import { execFileSync } from "node:child_process";

const SCRIPT = `
import json, sys
out = []
for src in json.load(sys.stdin):
    try:
        eval(src, {"__builtins__": __builtins__}, {})
        out.append(None)
    except Exception as e:
        out.append(str(e))
print(json.dumps(out))
`;

export function cpythonErrors(sources: readonly string[]): (string | null)[] {
  const stdout = execFileSync("python3", ["-W", "ignore", "-c", SCRIPT], { input: JSON.stringify(sources) });
  return JSON.parse(stdout.toString()) as (string | null)[];
}

/** A Python expression producing a value of each simple type used in the tables. */
export const SAMPLE: Readonly<Record<string, string>> = {
  none: "None",
  bool: "True",
  int: "1",
  float: "1.5",
  str: "'a'",
  "list[int]": "[1]",
  "tuple[int]": "(1,)",
  "dict[str, int]": "{'a': 1}",
  "keys[str]": "{'a': 1}.keys()",
  "values[int]": "{'a': 1}.values()",
  "items[str, int]": "{'a': 1}.items()",
  "generator[int]": "(x for x in [1])",
  method: "'a'.lower",
};
