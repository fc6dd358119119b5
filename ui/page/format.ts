// Text for the page: relative times, durations, short ids, values as pretty JSON, status labels.
import type { FlowListStatus, StepState } from "../api-types";

/** "just now", "42 s ago", "5 min ago", "3 h ago", "2 days ago", then the date. */
export function relativeTime(ms: number, now: number = Date.now()): string {
  const seconds = Math.round((now - ms) / 1000);
  if (!Number.isFinite(seconds)) return "unknown";
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 14) return days === 1 ? "yesterday" : `${days} days ago`;
  return new Date(ms).toLocaleDateString();
}

/** The full local date and time, for tooltips. */
export function absoluteTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? "unknown" : d.toLocaleString();
}

export function isoTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

/** "350 ms", "1.2 s", "2 min 5 s", "1 h 3 min". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${m - h * 60} min`;
}

/** A gate timeout (seconds): "1 day", "2 h", "30 min". */
export function timeoutText(seconds: number): string {
  if (seconds % 86400 === 0) return seconds === 86400 ? "1 day" : `${seconds / 86400} days`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The first 8 characters of a flow id (UUIDs are unique enough there to tell flows apart). */
export function shortId(id: string): string {
  return id.length > 8 ? id.slice(0, 8) : id;
}

/**
 * A JSON value as text in JSON's layout (2-space indent), with strings shown verbatim between
 * quotes (no escapes: an agent's `"` or newline reads as itself). Only ever shown with textContent.
 */
export function prettyJson(value: unknown, indent = ""): string {
  if (typeof value === "string") return `"${value}"`;
  if (value === null || typeof value !== "object") {
    try {
      return JSON.stringify(value) ?? "null";
    } catch {
      return String(value);
    }
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    if (items.length === 0) return "[]";
    return `[\n${items.map((v) => inner + prettyJson(v, inner)).join(",\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${inner}"${k}": ${prettyJson(v, inner)}`).join(",\n")}\n${indent}}`;
}

export const STATUS_LABEL: Readonly<Record<FlowListStatus, string>> = {
  running: "running",
  awaiting_gate: "awaiting gate",
  exhausted: "exhausted",
  complete: "complete",
  killed: "killed",
  budget_exhausted: "budget exhausted",
  corrupt: "corrupt",
};

export const STATE_LABEL: Readonly<Record<StepState, string>> = {
  done: "done",
  current: "current",
  awaiting_gate: "awaiting gate",
  failed: "failed",
  skipped: "skipped",
  pending: "pending",
  killed: "killed",
};

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
