// Text for the inbox: how long a gate has waited, when its timeout falls due, a decision's outcome.
import type { GateOutcome } from "../api-types";

/** "under a minute", "5 min", "2 h", "2 h 5 min" (under 10 h), "3 days". */
export function ageText(ms: number): string {
  if (!Number.isFinite(ms)) return "unknown";
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 10) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}

/** "waiting 2 h". */
export function waitingText(sinceMs: number, now: number = Date.now()): string {
  return `waiting ${ageText(now - sinceMs)}`;
}

/** "due in 40 min", or "overdue by 5 min" once the timeout has passed. */
export function dueText(expiresMs: number, now: number = Date.now()): string {
  return expiresMs > now ? `due in ${ageText(expiresMs - now)}` : `overdue by ${ageText(now - expiresMs)}`;
}

export const OUTCOME_LABEL: Readonly<Record<GateOutcome, string>> = {
  approve: "approved",
  revise: "revised",
  kill: "killed",
};
