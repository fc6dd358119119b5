// Who may resolve gates over MCP, and how long stratum_gate_ask waits for the person
// (docs/guides/mcp-server-gates.md). STRATUM_GATES is `any` (the default: stratum_gate_resolve
// works, as in the reference) or `human` (only a person resolves gates: stratum_gate_ask, the page
// of `stratumc ui`, `stratumc gate`). STRATUM_GATE_ASK_TIMEOUT is the wait in whole seconds. A value
// that is not one of these stops the server at start: a setting meant to protect gates must never
// be ignored quietly.

const GATES_VARIABLE = "STRATUM_GATES";
const TIMEOUT_VARIABLE = "STRATUM_GATE_ASK_TIMEOUT";

/** Ten minutes: long enough to read a result, short enough that a forgotten prompt ends. */
export const DEFAULT_GATE_ASK_TIMEOUT_S = 600;
const MAX_GATE_ASK_TIMEOUT_S = 86_400;

export type GateMode = "any" | "human";

export interface GateSetting {
  readonly mode: GateMode;
  /** How long one elicitation may wait for the person's answer, in ms. */
  readonly askTimeoutMs: number;
}

export type GateSettingResult =
  | { readonly ok: true; readonly setting: GateSetting }
  | { readonly ok: false; readonly message: string };

export function gateSettingOf(env: Readonly<Record<string, string | undefined>>): GateSettingResult {
  const mode = (env[GATES_VARIABLE] ?? "").trim();
  if (mode !== "" && mode !== "any" && mode !== "human") {
    return {
      ok: false,
      message: `${GATES_VARIABLE}=${JSON.stringify(env[GATES_VARIABLE])} is not one of human, any`,
    };
  }
  const timeout = (env[TIMEOUT_VARIABLE] ?? "").trim();
  let seconds = DEFAULT_GATE_ASK_TIMEOUT_S;
  if (timeout !== "") {
    seconds = Number(timeout);
    if (!/^[0-9]+$/.test(timeout) || seconds < 1 || seconds > MAX_GATE_ASK_TIMEOUT_S) {
      return {
        ok: false,
        message: `${TIMEOUT_VARIABLE}=${JSON.stringify(env[TIMEOUT_VARIABLE])} is not a whole number of seconds from 1 to ${MAX_GATE_ASK_TIMEOUT_S}`,
      };
    }
  }
  return { ok: true, setting: { mode: mode === "human" ? "human" : "any", askTimeoutMs: seconds * 1000 } };
}
