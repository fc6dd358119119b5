// Tool arguments (docs/reference/runtime.md §16.1): checked against the tool's schema, with data arguments decoded
// kind-preservingly (docs/reference/language.md §10.7.2) by the transport's one parse of the request line when
// it has them, so that `1.0` in a result stays a float. A bad argument gives
// `{status: "error", error_type: "invalid_arguments", message: "<argument>: <problem>"}`. Every
// argument value is measured first (iteratively): one nested deeper or holding more values than
// the limits of interpreter/limits.ts is refused before any recursive code sees it.
import type { z } from "zod";
import type { Response } from "../interpreter/index";
import { argumentsLimitProblem, toolError } from "../interpreter/index";
import { dictGetStr, fromJsonValue, PyDict, type PyValue } from "../stdlib/index";
import type { ToolArguments, ToolDefinition } from "./tools";

export type DecodedArguments =
  | { readonly ok: true; readonly args: ToolArguments }
  | { readonly ok: false; readonly error: Response };

/**
 * @param raw the arguments decoded from the request line (kind-preserving), when available
 * @param parsed the arguments as plain JSON data, what the schema checks: JSON.parse's, or, when
 *   `raw` is given, its plain view down to the levels the schemas look at (request-line.ts), so
 *   no argument is converted in full
 */
export function decodeArguments(
  tool: ToolDefinition,
  raw: PyValue | undefined,
  parsed: unknown,
): DecodedArguments {
  const rawDict = raw instanceof PyDict ? raw : undefined;
  const tooLarge = argumentsLimitProblem(argumentEntries(rawDict ?? parsed));
  if (tooLarge !== null) return { ok: false, error: toolError("invalid_arguments", tooLarge) };
  const input = parsed ?? {};
  const checked = tool.schema.safeParse(input);
  if (!checked.success) return { ok: false, error: invalidArguments(checked.error.issues, input) };
  const plain = checked.data as Record<string, unknown>;
  return {
    ok: true,
    args: {
      plain,
      data(name: string): PyValue {
        const exact = rawDict === undefined ? undefined : dictGetStr(rawDict, name);
        return exact ?? fromJsonValue(plain[name]);
      },
    },
  };
}

/** Each argument by name (unknown ones too: they are converted before the schema drops them). */
function argumentEntries(args: unknown): [string, unknown][] {
  if (args instanceof PyDict) return [...args.entries.values()].map(([k, v]) => [String(k), v]);
  if (typeof args === "object" && args !== null && !Array.isArray(args)) return Object.entries(args);
  return [["arguments", args]];
}

function invalidArguments(issues: readonly z.core.$ZodIssue[], input: unknown): Response {
  const issue = issues[0];
  const detail =
    issue === undefined
      ? "arguments: invalid"
      : describeIssue(issue, input, { root: "arguments", missing: "missing required argument" });
  return toolError("invalid_arguments", detail);
}

/**
 * `<path>: <problem>` for a zod issue about `root` (a path `a.b[0]`; the root's own name for an
 * empty path): `expected <JSON type>, got <JSON type>`, `missing`, or zod's one-line message for
 * other kinds of issue. Never the issue list itself.
 */
export function describeIssue(
  issue: z.core.$ZodIssue,
  root: unknown,
  names: { readonly root?: string; readonly missing?: string } = {},
): string {
  const path = issue.path.reduce<string>(
    (acc, key) =>
      typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`,
    "",
  );
  const name = path === "" ? (names.root ?? "request") : path;
  if (issue.code === "invalid_union") return describeUnion(issue, name, root, names);
  if (issue.code !== "invalid_type") return `${name}: ${oneLine(issue.message)}`;
  const given = valueAt(root, issue.path);
  if (given === undefined) return `${name}: ${names.missing ?? "missing"}`;
  const expected =
    issue.expected === "record" ? "object" : issue.expected === "int" ? "integer" : issue.expected;
  return `${name}: expected ${expected}, got ${jsonKind(given)}`;
}

/**
 * A value none of a union's branches takes (`merge_status`: a string or an object): missing; else
 * the issue of the branch the value's type chose (`merge_status.status: expected string, …`); else
 * the branches' types.
 */
function describeUnion(
  issue: z.core.$ZodIssueInvalidUnion,
  name: string,
  root: unknown,
  names: { readonly root?: string; readonly missing?: string },
): string {
  const given = valueAt(root, issue.path);
  if (given === undefined) return `${name}: ${names.missing ?? "missing"}`;
  const inner = issue.errors.flat().find((i) => i.path.length > 0);
  if (inner !== undefined)
    return describeIssue({ ...inner, path: [...issue.path, ...inner.path] }, root, names);
  const kinds = issue.errors.flatMap((branch) => {
    const first = branch[0];
    return first?.code === "invalid_type" ? [first.expected] : [];
  });
  return kinds.length === 0
    ? `${name}: ${oneLine(issue.message)}`
    : `${name}: expected ${kinds.join(" or ")}, got ${jsonKind(given)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (typeof at !== "object" || at === null || typeof key === "symbol") return undefined;
    if (!Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

function oneLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The JSON type of a value as a message names it. */
export function jsonKind(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "bigint") return "integer";
  return typeof v === "object" ? "object" : typeof v;
}
