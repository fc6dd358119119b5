// Who may use `stratumc ui` (docs/guides/ui.md "Security"): whoever has the token printed at start (or the
// one configured), as Jupyter does. No cookie: a cookie is sent to every port of its host, so any
// other local server the browser visits would receive it. The page trades the token for a session
// (random, made by this process, expiring) that it keeps in the tab's sessionStorage and sends as
// `Authorization: Bearer` on every request; scripts may send the token itself that way. A
// browser never adds that header on its own, so no other site can make a browser use it:
// together with JSON content and an Origin of the page's own on the gate POST, that is what
// stops cross-site requests.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** 32 random bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** How long a page's session lasts (a working day and more); then the printed address logs in again. */
export const SESSION_MS = 24 * 60 * 60 * 1000;
/** The most sessions kept; the oldest goes first (every tab opened with the token makes one). */
const MAX_SESSIONS = 1_000;

export interface Session {
  readonly session: string;
  /** ms since the epoch. */
  readonly expires_ms: number;
}

export class UiAuth {
  /** sha256 of each session → when it expires. Looked up by digest, so the lookup's timing says nothing of a session. */
  private readonly sessions = new Map<string, number>();

  constructor(
    private readonly token: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `candidate` is the token (constant time). */
  isToken(candidate: string | null): boolean {
    if (candidate === null) return false;
    const x = Buffer.from(candidate, "utf8");
    const y = Buffer.from(this.token, "utf8");
    return x.length === y.length && timingSafeEqual(x, y);
  }

  /** A new session for a page that showed the token; it ends with this process or at `expires_ms`. */
  newSession(): Session {
    const session = randomToken();
    const expires = this.now() + SESSION_MS;
    this.sessions.set(digest(session), expires);
    for (const key of this.sessions.keys()) {
      if (this.sessions.size <= MAX_SESSIONS) break;
      this.sessions.delete(key);
    }
    return { session, expires_ms: expires };
  }

  /** The bearer credential of a request, when it has one. */
  static bearer(request: IncomingMessage): string | null {
    return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? null;
  }

  /** Whether the request carries the token or a live session as `Authorization: Bearer`. Cookies count for nothing. */
  isAuthorized(request: IncomingMessage): boolean {
    const credential = UiAuth.bearer(request);
    if (credential === null) return false;
    if (this.isToken(credential)) return true;
    const key = digest(credential);
    const expires = this.sessions.get(key);
    if (expires === undefined) return false;
    if (expires > this.now()) return true;
    this.sessions.delete(key);
    return false;
  }

  /** Why a state-changing request is refused (content type, origin), or null when it may go on. */
  refuseChange(request: IncomingMessage, origins: ReadonlySet<string>, json = true): string | null {
    const type = request.headers["content-type"] ?? "";
    if (json && !/^application\/json(\s*;|$)/i.test(type)) return "the body must be application/json";
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return `requests from ${origin} are not accepted`;
    return null;
  }
}

function digest(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}
