// `stratum_list_workflows(workflows_dir)` (docs/reference/runtime.md §18): the `*.stratum.yaml` files directly in
// a directory that declare a `workflow` block, with one error string per unreadable or invalid
// file and per duplicate workflow name.
import { familyOf } from "../../checker/catalogue";
import { type CheckResult, checkSpec, oversizedSpec } from "../../checker/check-spec";
import { MAX_SPEC_BYTES } from "../../checker/yaml/rules/YAML-TOO-LARGE";
import { fromJsonValue } from "../../stdlib/values/json";
import { compareCodePoints } from "../../stdlib/values/strings";
import type { PyValue } from "../../stdlib/values/value";
import type { Response, WireObject } from "../wire/wire";
import { nodeToValue } from "./node-value";
import { joinPath, resolveAgainst } from "./paths";
import { decodeUtf8 } from "./utf8";
import type { WorkspaceFs } from "./workspace";

const SUFFIX = ".stratum.yaml";
const YAML_PREFIX = "YAML syntax error: ";

export function listWorkflows(fs: WorkspaceFs, cwd: string, dir: string): Response {
  // Paths are reported under the directory with its symbolic links resolved (Python's resolve()).
  const root = fs.realpath(resolveAgainst(cwd, dir));
  const workflows: WireObject[] = [];
  const errors: string[] = [];
  const listing = fs.readDir(root);
  // A missing or unreadable directory lists nothing (as a glob over it would).
  const names = listing.ok
    ? listing.value
        .map((entry) => entry.name)
        .filter((name) => name.endsWith(SUFFIX))
        .sort(compareCodePoints)
    : [];
  const firstPathOf = new Map<string, string>();
  for (const name of names) {
    const path = joinPath(root, name);
    const listed = readWorkflow(fs, path);
    if (listed.kind === "error") {
      errors.push(`${name}: ${listed.message}`);
      continue;
    }
    if (listed.kind === "none") continue;
    const first = firstPathOf.get(listed.name);
    if (first !== undefined) {
      errors.push(`Duplicate workflow name '${listed.name}': ${first} and ${path}`);
      continue;
    }
    firstPathOf.set(listed.name, path);
    workflows.push({ name: listed.name, description: listed.description, input: listed.input, path });
  }
  return { workflows, errors };
}

/**
 * The check of one spec file. A file over the spec size limit is not read: it gets the same
 * YAML-TOO-LARGE result checkSpec would give its text.
 */
function checkFile(fs: WorkspaceFs, path: string): CheckResult | { readonly problem: string } {
  const bytes = fs.readFile(path, MAX_SPEC_BYTES);
  if (!bytes.ok) {
    return bytes.tooLarge === undefined ? { problem: bytes.reason } : oversizedSpec(bytes.tooLarge);
  }
  const decoded = decodeUtf8(bytes.value);
  if (!decoded.ok) return { problem: decoded.reason };
  // A byte order mark starts the stream, it is not content (as YAML loaders read it).
  const text = decoded.text.startsWith("\uFEFF") ? decoded.text.slice(1) : decoded.text;
  return checkSpec(text);
}

type Listed =
  | { readonly kind: "error"; readonly message: string }
  | { readonly kind: "none" }
  | {
      readonly kind: "workflow";
      readonly name: string;
      readonly description: string;
      readonly input: PyValue;
    };

function readWorkflow(fs: WorkspaceFs, path: string): Listed {
  const checked = checkFile(fs, path);
  if ("problem" in checked) return { kind: "error", message: checked.problem };
  const first = checked.errors[0];
  if (first !== undefined) {
    const yamlFamily = familyOf(first.code, first.path) === "yaml";
    const message =
      yamlFamily && first.message.startsWith(YAML_PREFIX)
        ? first.message.slice(YAML_PREFIX.length)
        : first.message;
    return { kind: "error", message };
  }
  const workflow = checked.ir?.workflow ?? null;
  if (workflow === null) return { kind: "none" };
  // `input` as written: from the YAML node (order and int/float kinds kept), else from the IR.
  const inputNode = checked.model?.workflow?.entry("input")?.value;
  const input = inputNode === undefined ? fromJsonValue(workflow.input) : nodeToValue(inputNode);
  return { kind: "workflow", name: workflow.name, description: workflow.description, input };
}
