// Who may use `stratumc ui` (docs/guides/ui.md "Security"): whoever has the token printed at start (or the
// one configured), as Jupyter does. No cookie: a cookie is sent to every port of its host, so any
// other local server the browser visits would receive it. The page trades the token for a session
// (random, made by this process, expiring) that it keeps in the tab's sessionStorage and sends as
// `Authorization: Bearer` on every request; scripts may send the token itself that way. A
// browser never adds that header on its own, so no other site can make a browser use it:
// together with JSON content and an Origin of the page's own on the gate POST, that is what
// stops cross-site requests.
// With `--users` (users.ts) there is no single token: each person's own token signs them in, and
// the session remembers who, so a gate they resolve records their name.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { SessionView } from "./api-types";
import { ANONYMOUS, type PeopleSource, type Person, type Reviewer } from "./users";

/** 32 random bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** How long a page's session lasts (a working day and more); then the printed address logs in again. */
export const SESSION_MS = 24 * 60 * 60 * 1000;
/** The most sessions kept; the oldest goes first (every tab opened with the token makes one). */
const MAX_SESSIONS = 1_000;

export class UiAuth {
  /** sha256 of each session → when it expires and whose it is. Looked up by digest, so the lookup's timing says nothing of a session. */
  private readonly sessions = new Map<
    string,
    { readonly expires: number; readonly reviewer: Reviewer; readonly person: Person | null }
  >();

  /** `credentials`: the single token, or the people of `--users` (as the users file says now). */
  constructor(
    private readonly credentials: string | PeopleSource,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `candidate` is a token: the single one or a person's (constant time). */
  isToken(candidate: string | null): boolean {
    return this.login(candidate) !== null;
  }

  /** Who `candidate` signs in (constant time), or null when it is no token. */
  login(candidate: string | null): Reviewer | null {
    if (candidate === null) return null;
    if (typeof this.credentials !== "string") {
      const person = this.credentials.current().find(candidate);
      return person === null ? null : reviewerOf(person);
    }
    const x = Buffer.from(candidate, "utf8");
    const y = Buffer.from(this.credentials, "utf8");
    return x.length === y.length && timingSafeEqual(x, y) ? ANONYMOUS : null;
  }

  /**
   * A new session for a page that showed `token` (checked by the caller); it ends with this process
   * or at `expires_ms`, and with `--users` as soon as the person leaves the file or gets a new token.
   */
  newSession(token: string | null = null): Omit<SessionView, "home"> {
    const person =
      typeof this.credentials === "string" || token === null ? null : this.credentials.current().find(token);
    const reviewer = person === null ? ANONYMOUS : reviewerOf(person);
    const session = randomToken();
    const expires = this.now() + SESSION_MS;
    this.sessions.set(digest(session), { expires, reviewer, person });
    for (const key of this.sessions.keys()) {
      if (this.sessions.size <= MAX_SESSIONS) break;
      this.sessions.delete(key);
    }
    return { session, expires_ms: expires, name: reviewer.name };
  }

  /** The bearer credential of a request, when it has one. */
  static bearer(request: IncomingMessage): string | null {
    return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? null;
  }

  /** Whether the request carries a token or a live session as `Authorization: Bearer`. Cookies count for nothing. */
  isAuthorized(request: IncomingMessage): boolean {
    return this.reviewerOf(request) !== null;
  }

  /** Who the request's token or live session belongs to; null when it has neither. */
  reviewerOf(request: IncomingMessage): Reviewer | null {
    const credential = UiAuth.bearer(request);
    if (credential === null) return null;
    const signedIn = this.login(credential);
    if (signedIn !== null) return signedIn;
    const key = digest(credential);
    const held = this.sessions.get(key);
    if (held === undefined) return null;
    if (held.expires > this.now()) {
      if (held.person === null || typeof this.credentials === "string") return held.reviewer;
      // A person removed from the users file, or given a new token, is signed out at once; one
      // whose may_resolve changed gets the new rules.
      const now = this.credentials.current().still(held.person.name, held.person.tokenSha256);
      if (now !== null) return reviewerOf(now);
    }
    this.sessions.delete(key);
    return null;
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

function reviewerOf(person: Person): Reviewer {
  return { name: person.name, mayResolve: person.mayResolve };
}

function digest(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("base64url");
}
