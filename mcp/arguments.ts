// Tool arguments (runtime.md §16.1): checked against the tool's schema, with data arguments decoded
// kind-preservingly (language.md §10.7.2) from the request's raw JSON text when the transport kept
// it, so that `1.0` in a result stays a float. A bad argument gives
// `{status: "error", error_type: "invalid_arguments", message: "<argument>: <problem>"}`.
import type { z } from "zod";
import { toolError } from "../interpreter/flow/errors";
import { wireToPlain } from "../interpreter/wire/encode";
import type { Response } from "../interpreter/wire/wire";
import { dictGetStr } from "../stdlib/values/dict";
import { fromJsonValue } from "../stdlib/values/json";
import { PyDict, type PyValue } from "../stdlib/values/value";
import type { ToolArguments, ToolDefinition } from "./tools";

export type DecodedArguments =
  | { readonly ok: true; readonly args: ToolArguments }
  | { readonly ok: false; readonly error: Response };

/**
 * @param raw the arguments decoded from the raw request text (kind-preserving), when available
 * @param parsed the arguments as the protocol layer parsed them (JSON.parse)
 */
export function decodeArguments(
  tool: ToolDefinition,
  raw: PyValue | undefined,
  parsed: unknown,
): DecodedArguments {
  const rawDict = raw instanceof PyDict ? raw : undefined;
  const input = rawDict !== undefined ? wireToPlain(rawDict) : (parsed ?? {});
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

function invalidArguments(issues: readonly z.core.$ZodIssue[], input: unknown): Response {
  const issue = issues[0];
  const name = issue?.path.map(String).join(".") || "arguments";
  let problem = issue?.message ?? "invalid";
  if (issue?.code === "invalid_type") {
    const given = issue.path.length === 1 && isRecord(input) ? input[String(issue.path[0])] : undefined;
    problem =
      given === undefined && issue.path.length === 1
        ? "missing required argument"
        : `expected ${issue.expected === "record" ? "object" : issue.expected}, got ${jsonKind(given)}`;
  }
  return toolError("invalid_arguments", `${name}: ${problem}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function jsonKind(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "bigint") return "integer";
  return typeof v === "object" ? "object" : typeof v;
}
