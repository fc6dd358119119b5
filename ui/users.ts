// The named reviewers of `stratumc ui --users` (docs/guides/ui-people.md): each person has a name,
// the sha256 of their token (never the token itself) and, optionally, the gates they may resolve.
// A token is 32 random bytes, so a fast hash is enough: a slow one (scrypt) protects guessable
// passwords, and nothing guesses 256 random bits. A candidate is hashed once and compared with
// every person's digest in constant time, without stopping at a match.
import { createHash, timingSafeEqual } from "node:crypto";

/** Who may resolve what: a gate of a flow named in `flows`, or a gate whose step id is in `gates`. */
export interface MayResolve {
  readonly flows: readonly string[];
  readonly gates: readonly string[];
}

export interface Person {
  readonly name: string;
  /** sha256 of the token, 32 bytes. */
  readonly tokenSha256: Buffer;
  /** null: every gate. */
  readonly mayResolve: MayResolve | null;
}

/**
 * Who a credential belongs to: a named person, or (name null) whoever holds the single token of
 * `stratumc ui` without `--users`, recorded as `resolved_by: "human"` and no name.
 */
export interface Reviewer {
  readonly name: string | null;
  readonly mayResolve: MayResolve | null;
}

export const ANONYMOUS: Reviewer = { name: null, mayResolve: null };

/** A person's name: shown on the page and in audits, and a file name under `--users DIR`. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const NAME_RULE =
  "a name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit";

/** The sha256 of a token, as the users file stores it (64 lowercase hex digits). */
export function tokenSha256Hex(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The people as they are now: a fixed list, or a users file re-read when it changes (users-source.ts). */
export interface PeopleSource {
  current(): People;
}

export class People implements PeopleSource {
  constructor(readonly people: readonly Person[]) {}

  current(): People {
    return this;
  }

  /** The person of that name whose token has this digest: a session stays theirs only while both hold. */
  still(name: string, tokenSha256: Buffer): Person | null {
    return this.people.find((p) => p.name === name && p.tokenSha256.equals(tokenSha256)) ?? null;
  }

  /** The person whose token `candidate` is, or null. Every digest is compared, match or not. */
  find(candidate: string): Person | null {
    const digest = createHash("sha256").update(candidate, "utf8").digest();
    let found: Person | null = null;
    for (const person of this.people) {
      if (timingSafeEqual(digest, person.tokenSha256) && found === null) found = person;
    }
    return found;
  }
}

/** Whether `reviewer` may resolve gate `gateId` of a flow named `flowName`. */
export function mayResolve(reviewer: Reviewer, flowName: string, gateId: string): boolean {
  const rules = reviewer.mayResolve;
  return rules === null || rules.flows.includes(flowName) || rules.gates.includes(gateId);
}

/** The 403 message when `reviewer` may not resolve that gate. */
export function refusalMessage(reviewer: Reviewer, flowName: string, gateId: string): string {
  const rules = reviewer.mayResolve;
  const allowed =
    rules === null
      ? "every gate"
      : [
          rules.flows.length === 0 ? "" : `the gates of flows ${rules.flows.join(", ")}`,
          rules.gates.length === 0 ? "" : `the gates ${rules.gates.join(", ")}`,
        ]
          .filter((part) => part !== "")
          .join(" and ") || "no gate";
  return `${reviewer.name ?? "This token"} may not resolve gate '${gateId}' of flow '${flowName}': the users file lets ${reviewer.name ?? "it"} resolve ${allowed} (may_resolve). Someone who may resolve it must decide.`;
}
