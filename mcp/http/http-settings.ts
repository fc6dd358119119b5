// The environment's settings of the HTTP server (docs/guides/mcp-server-http.md), read once at
// start; a bad value stops the server with one line naming the variable.
import { bearerToken } from "./bearer-token";
import { KEEP_ALIVE_IDLE_MS } from "./idle-connections";

/** Sessions open at once, at most (STRATUM_MCP_MAX_SESSIONS). */
export const DEFAULT_MAX_SESSIONS = 64;
/** A session without a request for this long is closed (STRATUM_MCP_SESSION_IDLE, seconds). */
export const DEFAULT_SESSION_IDLE_S = 30 * 60;
/** A stopping server lets the calls in progress run this long before it cancels them (STRATUM_MCP_STOP_GRACE, seconds). */
export const DEFAULT_STOP_GRACE_S = 10;
/** A connection idle this long between requests is closed by the server (STRATUM_MCP_KEEP_ALIVE, seconds). */
export const DEFAULT_KEEP_ALIVE_S = KEEP_ALIVE_IDLE_MS / 1000;

export interface HttpSettings {
  readonly token: string;
  /** The token was made here: the server prints it once. */
  readonly tokenGenerated: boolean;
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
  readonly stopGraceMs: number;
  readonly keepAliveMs: number;
  readonly allowedHosts: string | undefined;
  readonly allowedOrigins: string | undefined;
}

export function httpSettings(
  env: Readonly<Record<string, string | undefined>>,
): HttpSettings | { readonly error: string } {
  const token = bearerToken(env);
  if ("error" in token) return token;
  const maxSessions = positiveInteger(env, "STRATUM_MCP_MAX_SESSIONS", DEFAULT_MAX_SESSIONS);
  if (typeof maxSessions === "string") return { error: maxSessions };
  const idle = positiveInteger(env, "STRATUM_MCP_SESSION_IDLE", DEFAULT_SESSION_IDLE_S);
  if (typeof idle === "string") return { error: idle };
  const grace = positiveInteger(env, "STRATUM_MCP_STOP_GRACE", DEFAULT_STOP_GRACE_S);
  if (typeof grace === "string") return { error: grace };
  const keepAlive = positiveInteger(env, "STRATUM_MCP_KEEP_ALIVE", DEFAULT_KEEP_ALIVE_S);
  if (typeof keepAlive === "string") return { error: keepAlive };
  return {
    token: token.token,
    tokenGenerated: token.generated,
    maxSessions,
    sessionIdleMs: idle * 1000,
    stopGraceMs: grace * 1000,
    keepAliveMs: keepAlive * 1000,
    allowedHosts: env.STRATUM_MCP_ALLOWED_HOSTS,
    allowedOrigins: env.STRATUM_MCP_ALLOWED_ORIGINS,
  };
}

/** The variable's value, its default when unset, or the reason it is wrong. */
function positiveInteger(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
): number | string {
  const text = env[name];
  if (text === undefined || text.trim() === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1)
    return `${name}: expected a positive whole number, got '${text}'`;
  return value;
}
