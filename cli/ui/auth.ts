// Who may use `stratumc ui` (docs/ui.md "Security"): whoever has the token printed at start (or the
// one configured), as Jupyter does. Opening `/?token=…` exchanges it for a session cookie
// (HttpOnly, SameSite=Strict, named after the port: cookies are shared by every port of a host);
// scripts may send `Authorization: Bearer <token>` instead. State-changing requests also need the
// CSRF token the page carries in a meta tag, JSON content, and an Origin of the page's own, so no
// other site can make a logged-in browser resolve a gate.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** 32 random bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

export class UiAuth {
  /** The session cookie's value: derived from the token, so a restart with the same token keeps pages logged in. */
  private readonly session: string;
  readonly csrf: string;
  readonly cookieName: string;

  constructor(
    private readonly token: string,
    port: number,
  ) {
    this.session = createHmac("sha256", token).update("stratumc-ui session").digest("base64url");
    this.csrf = createHmac("sha256", token).update("stratumc-ui csrf").digest("base64url");
    this.cookieName = `stratumc_ui_${port}`;
  }

  /** Whether `candidate` is the token (constant time). */
  isToken(candidate: string | null): boolean {
    return candidate !== null && sameSecret(candidate, this.token);
  }

  /** The Set-Cookie header value that logs a browser in. */
  sessionCookie(): string {
    return `${this.cookieName}=${this.session}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** Whether the request carries the session cookie or the token as a bearer credential. */
  isAuthorized(request: IncomingMessage): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    if (bearer?.[1] !== undefined && this.isToken(bearer[1])) return true;
    const cookie = cookieValue(request.headers.cookie, this.cookieName);
    return cookie !== null && sameSecret(cookie, this.session);
  }

  /** Why a state-changing request is refused (CSRF token, content type, origin), or null when it may go on. */
  refuseChange(request: IncomingMessage, origins: ReadonlySet<string>): string | null {
    const csrf = request.headers["x-csrf-token"];
    if (typeof csrf !== "string" || !sameSecret(csrf, this.csrf))
      return "missing or wrong X-CSRF-Token header";
    const type = request.headers["content-type"] ?? "";
    if (!/^application\/json(\s*;|$)/i.test(type)) return "the body must be application/json";
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return `requests from ${origin} are not accepted`;
    return null;
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
