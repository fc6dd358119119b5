// The bearer token every request of the HTTP server must carry (`Authorization: Bearer <token>`):
// STRATUM_MCP_TOKEN, or one made at start from 32 random bytes, which the server prints once.
// Compared in constant time: both sides are hashed first, so neither the length nor a common
// prefix of a guess shows in the time the comparison takes.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A token shorter than this could be guessed; the server refuses to start with it. */
export const MIN_TOKEN_LENGTH = 16;

export type TokenSetting =
  | { readonly token: string; readonly generated: boolean }
  | { readonly error: string };

/** The token from the environment, or a new random one (`generated`: it must be shown once). */
export function bearerToken(env: Readonly<Record<string, string | undefined>>): TokenSetting {
  const given = env.STRATUM_MCP_TOKEN;
  if (given === undefined || given === "") {
    return { token: randomBytes(32).toString("base64url"), generated: true };
  }
  // A token is sent in a header: characters outside visible ASCII would not survive the trip.
  if (!/^[\x21-\x7e]+$/.test(given)) {
    return { error: "STRATUM_MCP_TOKEN: only visible ASCII characters (no spaces) may be used" };
  }
  if (given.length < MIN_TOKEN_LENGTH) {
    return { error: `STRATUM_MCP_TOKEN: at least ${MIN_TOKEN_LENGTH} characters are needed` };
  }
  return { token: given, generated: false };
}

/** Checks an `Authorization` header value against the token. */
export class TokenCheck {
  private readonly digest: Buffer;

  constructor(token: string) {
    this.digest = sha256(token);
  }

  accepts(authorization: string | undefined): boolean {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
    // A missing header is hashed too: every refusal takes the same time.
    return timingSafeEqual(sha256(match?.[1] ?? ""), this.digest) && match !== null;
  }
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
