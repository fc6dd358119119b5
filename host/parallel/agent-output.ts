// Reading what an agent program printed into the task's answer: the final result, or the error,
// and the tokens used (input + output, cache tokens excluded, as the reference counts them).
// What an agent prints is untrusted data, held to the limits of a tool argument
// (interpreter/limits.ts): its size is bounded while it is read (agent-process.ts), its nesting is
// counted on the text before anything is parsed, and its values after; output past a limit fails
// the task with the reason.
import { jsonTextDepth, MAX_VALUE_DEPTH, tooDeep, valueLimitProblem } from "../../interpreter";

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

export type AgentAnswer =
  | { readonly ok: true; readonly result: JsonValue; readonly tokens: number }
  | { readonly ok: false; readonly error: string; readonly tokens: number };

/** A program that ran to its exit. */
export interface AgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
}

type JsonObject = { readonly [key: string]: JsonValue };

/** JSON past the limits of a value: why, naming what it is. */
class TooLarge {
  constructor(readonly problem: string) {}
}

/**
 * `claude -p --output-format json` prints one object: `result` (the final text), `is_error`,
 * `subtype` (`success` or `error_…`), `usage` ({input_tokens, output_tokens, …}), cost and ids.
 */
export function readClaudeOutput(exit: AgentExit): AgentAnswer {
  const parsed = parseJson(exit.stdout.trim(), "claude output");
  if (parsed instanceof TooLarge) return { ok: false, error: parsed.problem, tokens: 0 };
  if (!isObject(parsed)) {
    if (exit.code !== 0) return { ok: false, error: exitError("claude", exit), tokens: 0 };
    return { ok: false, error: `claude printed no JSON result: ${snippet(exit.stdout)}`, tokens: 0 };
  }
  const tokens = usageTokens(parsed.usage);
  const subtype = typeof parsed.subtype === "string" ? parsed.subtype : "";
  if (parsed.is_error === true || subtype.startsWith("error")) {
    const text = typeof parsed.result === "string" && parsed.result.trim() !== "" ? parsed.result.trim() : "";
    return { ok: false, error: text || `claude reported an error (${subtype || "is_error"})`, tokens };
  }
  if (exit.code !== 0) return { ok: false, error: exitError("claude", exit), tokens };
  return { ok: true, result: parsed.result ?? null, tokens };
}

/**
 * `codex exec --json` prints one event per line: `thread.started`, `turn.started`,
 * `item.started|updated|completed` ({item: {type: "agent_message", text} …}),
 * `turn.completed` ({usage: {input_tokens, cached_input_tokens, output_tokens}}),
 * `turn.failed` ({error: {message}}) and `error` ({message}). The result is the agent messages'
 * text joined (the reference's), null when there is none.
 */
export function readCodexOutput(exit: AgentExit): AgentAnswer {
  const texts: string[] = [];
  let tokens = 0;
  let error: string | null = null;
  for (const line of exit.stdout.split("\n")) {
    // An event line past the limits is no event codex writes: skipped like any other stray line.
    const event = parseJson(line.trim(), "codex event");
    if (!isObject(event)) continue;
    const item = event.item;
    if (event.type === "item.completed" && isObject(item) && item.type === "agent_message") {
      if (typeof item.text === "string" && item.text !== "") texts.push(item.text);
    } else if (event.type === "turn.completed") {
      tokens += usageTokens(event.usage);
      // An `error` event followed by a completed turn was a transient one (a reconnection).
      error = null;
    } else if (event.type === "turn.failed") {
      const detail = isObject(event.error) ? event.error.message : undefined;
      error = typeof detail === "string" && detail !== "" ? detail : "codex turn failed";
    } else if (event.type === "error") {
      error = typeof event.message === "string" && event.message !== "" ? event.message : "codex error";
    }
  }
  if (error !== null) return { ok: false, error, tokens };
  if (exit.code !== 0 && texts.length === 0) return { ok: false, error: exitError("codex", exit), tokens };
  return { ok: true, result: texts.length === 0 ? null : texts.join(""), tokens };
}

/** `STRATUM_AGENT_COMMAND`: stdout is the result, as a JSON value when it parses as one, else as text. */
export function readCommandOutput(exit: AgentExit): AgentAnswer {
  if (exit.code !== 0) return { ok: false, error: exitError("agent command", exit), tokens: 0 };
  const text = exit.stdout.trim();
  const parsed = parseJson(text, "result");
  if (parsed instanceof TooLarge) return { ok: false, error: parsed.problem, tokens: 0 };
  return { ok: true, result: parsed === undefined ? text : parsed, tokens: 0 };
}

/** A failed exit: what the program said on stderr, else its exit code or signal. */
function exitError(label: string, exit: AgentExit): string {
  const said = exit.stderr.trim();
  if (said !== "") return said;
  if (exit.code === null) return `${label} killed by ${exit.signal ?? "a signal"}`;
  return `${label} exited with code ${exit.code}`;
}

function usageTokens(usage: JsonValue | undefined): number {
  if (!isObject(usage)) return 0;
  return count(usage.input_tokens) + count(usage.output_tokens);
}

function count(v: JsonValue | undefined): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.trunc(v) : 0;
}

/**
 * The JSON value of the text; undefined when the text is not JSON; TooLarge when it nests deeper
 * than MAX_VALUE_DEPTH (counted on the text, so nothing that deep is ever built) or holds more
 * values than MAX_VALUE_COUNT.
 */
function parseJson(text: string, what: string): JsonValue | TooLarge | undefined {
  if (text === "") return undefined;
  const depth = jsonTextDepth(text);
  if (depth > MAX_VALUE_DEPTH) {
    return new TooLarge(`${what}: ${tooDeep(depth)}`);
  }
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  const problem = valueLimitProblem(what, value);
  return problem === null ? value : new TooLarge(problem);
}

function isObject(v: JsonValue | TooLarge | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof TooLarge);
}

function snippet(text: string): string {
  const t = text.trim();
  if (t === "") return "(empty output)";
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}
