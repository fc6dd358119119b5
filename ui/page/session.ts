// The page's credential (docs/guides/ui.md "Security"): no cookie. The address `stratumc ui` printed
// carries the token; the page takes it out of the address bar at once (history.replaceState),
// trades it for a session of the server's making and keeps that session in this tab's
// sessionStorage, which no other origin — another port of this host included — can read. Every
// request sends it as `Authorization: Bearer`. A reload keeps it; a new tab, a server restart or
// its expiry need the printed address again.
import type { ApiError } from "../api-types";

const KEY = "stratumc-ui-session";

interface Stored {
  readonly session: string;
  readonly expires_ms: number;
  /** The signed-in person (`stratumc ui --users`); null with the single token. */
  readonly name: string | null;
  /** The flow store the server reads (SessionView.home). */
  readonly home: string;
}

function isStored(value: unknown): value is Stored {
  return (
    typeof value === "object" &&
    value !== null &&
    "session" in value &&
    typeof value.session === "string" &&
    "expires_ms" in value &&
    typeof value.expires_ms === "number" &&
    // Older servers did not say who: nobody in particular.
    (!("name" in value) || value.name === null || typeof value.name === "string") &&
    "home" in value &&
    typeof value.home === "string"
  );
}

function read(): Stored | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? "null");
    return isStored(value) && value.expires_ms > Date.now() ? value : null;
  } catch {
    return null;
  }
}

let current: Stored | null = null;

/** The header that authorizes a request; empty when the page has no session (the server answers 401). */
export function authHeaders(): Record<string, string> {
  return current === null ? {} : { Authorization: `Bearer ${current.session}` };
}

/** Who signed in (`stratumc ui --users`), or null with the single token. */
export function signedInName(): string | null {
  return current?.name ?? null;
}

/** The flow store the server reads, as the session said (null: no session). */
export function storeHome(): string | null {
  return current?.home ?? null;
}

/** Forgets the session (the server refused it: restarted, expired). */
export function forgetSession(): void {
  current = null;
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage refused (a private mode): the session lived in memory only.
  }
}

export type SessionStart = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** Takes the token out of the address and trades it for a session, or finds this tab's session. */
export async function startSession(): Promise<SessionStart> {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  if (token === null) {
    current = read();
    return current === null ? { ok: false, message: NEEDS_TOKEN } : { ok: true };
  }
  // Before anything else, so the token is in neither the address bar nor the history.
  history.replaceState(null, "", `/${location.hash}`);
  let response: Response;
  try {
    response = await fetch("/api/session", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
      cache: "no-store",
      credentials: "omit",
    });
  } catch (e) {
    return {
      ok: false,
      message: `The server cannot be reached (${e instanceof Error ? e.message : String(e)}).`,
    };
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || !isStored(body)) {
    const error = (body as Partial<ApiError> | null)?.error;
    return { ok: false, message: error?.message ?? `The server answered ${response.status}.` };
  }
  current = { session: body.session, expires_ms: body.expires_ms, name: body.name ?? null, home: body.home };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Storage refused: the session lasts as long as this page.
  }
  return { ok: true };
}

export const NEEDS_TOKEN =
  "This page needs the token that `stratumc ui` printed when it started: open the address it printed (http://…/?token=…), or, for a named reviewer, the address `stratumc ui add-user` printed for you. A session lasts in its tab until the server stops or a day has passed.";
