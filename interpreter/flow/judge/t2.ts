// The verifier tier (T2) of the judge (docs/reference/runtime.md §25.3): a verified or judged
// predicate is put to an agent that reads the staged evidence (artifacts/ and modified/) with
// read-only tools and answers JSON {verdict, confidence, reason, evidence}. The prompt, the tool
// lists, the model and the reading of the reply are the reference's; running the agent is the
// host's (the JudgeVerifier port), so this file does no I/O.
import { strRepr } from "../../../stdlib/values/repr";
import type { StagedTree } from "./staged-tree";
import type { TierRecord } from "./t1";

/** A file of the staged evidence tree: `artifacts/<name>.txt` or `modified/<path>`. */
interface StagedFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/** What the verifier agent is run with. */
export interface VerifierRequest {
  /** The prompt, given the directory the staged tree was written to (the agent's working directory). */
  readonly prompt: (stagingRoot: string) => string;
  readonly model: string;
  readonly allowedTools: readonly string[];
  readonly disallowedTools: readonly string[];
  readonly files: readonly StagedFile[];
}

/** The agent's final text, or why it gave none (the runner's error type and message). */
export type VerifierAnswer =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly errorType: string; readonly message: string };

/**
 * Runs the verifier agent (the host's agent runner): writes the files into a fresh directory,
 * runs the agent there, removes the directory. Never throws: a failure is an answer.
 */
export interface JudgeVerifier {
  /** `signal`: the call was cancelled; the agent is stopped (its answer then is a failure). */
  verify(request: VerifierRequest, signal?: AbortSignal): Promise<VerifierAnswer>;
}

export const T2_MODEL = "claude-sonnet-4-6";
export const T2_ALLOWED_TOOLS: readonly string[] = ["Read", "Grep", "Glob"];
export const T2_DISALLOWED_TOOLS: readonly string[] = ["Edit", "Write", "NotebookEdit", "Task", "Bash"];

const T2_SYSTEM_PROMPT = `You are a verifier. You read evidence already produced by a worker and
decide whether each predicate is met by that evidence. You do not run
commands. You do not modify files. You cite every claim with a path
under artifacts/ or modified/ in this exact format: <bucket>/<path>:<line>.

For each predicate you receive, return JSON:
{
  "predicate_id": "<id>",
  "verdict": "met" | "not_met" | "ambiguous",
  "confidence": <integer 1-10>,
  "reason": "<one or two sentences>",
  "evidence": [
    {"source": "artifacts/pytest_output.txt:142", "quote": "12 passed", "tier": "T2"}
  ]
}
`;

export interface PredicateText {
  readonly id: string;
  readonly type: string;
  readonly statement: string;
  readonly appliedGate: string;
}

export function t2Prompt(p: PredicateText, stagingRoot: string): string {
  return (
    `${T2_SYSTEM_PROMPT}\n` +
    `You are operating against the staging tree at ${stagingRoot}.\n` +
    `Predicate id: ${p.id}\n` +
    `Predicate type: ${p.type}\n` +
    `Predicate statement: ${p.statement}\n` +
    `Applied gate (confidence floor for 'met'): ${p.appliedGate}\n`
  );
}

export interface Evidence {
  readonly source: string;
  readonly quote: string;
  readonly tier: string;
}

/** The tier's verdict, or why the reply cannot be one (the whole call fails with it). */
export type T2Reading =
  | { readonly ok: true; readonly record: TierRecord; readonly evidence: readonly Evidence[] }
  | {
      readonly ok: false;
      readonly errorType: "CitationFormatError" | "verifier_failed";
      readonly message: string;
    };

/** The reference's citation shape: `<bucket>/<path>:<line>`. */
const CITATION = /^(artifacts|modified)\/[^:]+:[0-9]+$/;
const VERDICTS: ReadonlySet<string> = new Set(["met", "not_met", "ambiguous"]);
const EVIDENCE_KEYS = ["source", "quote", "tier"];

/** Reads the agent's reply as the reference does, and checks each citation against the tree. */
export function readT2Reply(text: string, tree: StagedTree): T2Reading {
  const parsed = parseReply(text);
  if (typeof parsed === "string") return failed(`the verifier's reply is not JSON: ${parsed}`);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return failed("the verifier's reply is not a JSON object");
  }
  const reply = parsed as Record<string, unknown>;
  const verdict = reply.verdict;
  if (typeof verdict !== "string" || !VERDICTS.has(verdict)) {
    return failed(
      `the verifier's verdict must be met, not_met or ambiguous, not ${JSON.stringify(verdict ?? null)}`,
    );
  }
  const confidence = integerOf(reply.confidence);
  if (confidence === null) {
    return failed(`the verifier's confidence is not an integer: ${JSON.stringify(reply.confidence ?? null)}`);
  }
  const reason = reply.reason === undefined ? "" : reply.reason;
  if (typeof reason !== "string") return failed("the verifier's reason is not text");
  const evidence: Evidence[] = [];
  const given = reply.evidence === undefined ? [] : reply.evidence;
  if (!Array.isArray(given)) return failed("the verifier's evidence is not a list");
  for (const e of given) {
    const entry = evidenceOf(e);
    if (entry === null) return failed("each evidence entry must be {source, quote, tier}, all text");
    const problem = citationProblem(entry.source, tree);
    if (problem !== null) return { ok: false, errorType: "CitationFormatError", message: problem };
    evidence.push(entry);
  }
  return {
    ok: true,
    record: { tier: "T2", verdict: verdict as TierRecord["verdict"], confidence, reason },
    evidence,
  };
}

function failed(message: string): T2Reading {
  return { ok: false, errorType: "verifier_failed", message };
}

/** JSON of the reply: fences dropped, else the outermost {...} when prose surrounds it. */
function parseReply(reply: string): unknown {
  let text = reply.trim();
  if (text.startsWith("```")) {
    let lines = text.split(/\r\n|\r|\n/);
    if (lines.length > 0 && lines[0]?.startsWith("```")) lines = lines.slice(1);
    if (lines.length > 0 && lines.at(-1)?.trim().startsWith("```")) lines = lines.slice(0, -1);
    text = lines.join("\n").trim();
  }
  if (!text.startsWith("{")) {
    const first = text.indexOf("{");
    const last = text.lastIndexOf("}");
    if (first !== -1 && last > first) text = text.slice(first, last + 1);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Python's int() of a JSON value: a number truncated, a string of digits; else null. */
function integerOf(v: unknown): number | null {
  if (typeof v === "number" && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === "string" && /^\s*[+-]?[0-9]+\s*$/.test(v)) return Number.parseInt(v, 10);
  return null;
}

function evidenceOf(e: unknown): Evidence | null {
  if (e === null || typeof e !== "object" || Array.isArray(e)) return null;
  const entry = e as Record<string, unknown>;
  const keys = Object.keys(entry);
  if (keys.length !== EVIDENCE_KEYS.length || !EVIDENCE_KEYS.every((k) => keys.includes(k))) return null;
  const { source, quote, tier } = entry;
  if (typeof source !== "string" || typeof quote !== "string" || typeof tier !== "string") return null;
  return { source, quote, tier };
}

/** The reference's three refusals: the shape, a path out of its bucket, a file not in the tree. */
function citationProblem(source: string, tree: StagedTree): string | null {
  const shown = strRepr(source);
  if (!CITATION.test(source)) return `bad citation format: ${shown}`;
  const pathPart = source.slice(0, source.lastIndexOf(":"));
  const bucket = pathPart.slice(0, pathPart.indexOf("/"));
  const normal = normalize(pathPart);
  if (normal === null || !normal.startsWith(`${bucket}/`)) return `citation escapes staging bucket: ${shown}`;
  if (!tree.has(normal)) return `citation path missing in staging tree: ${shown}`;
  return null;
}

/** `a/./b/../c` → `a/c`; null when `..` climbs above the start. */
function normalize(path: string): string | null {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}
