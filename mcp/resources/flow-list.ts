// `resources/list` of the flows: the store's most recently updated flows, newest first (ties by
// id), at most MAX_LISTED_FLOWS of them, FLOWS_PAGE_SIZE per page. The cursor names the last flow
// of the page before (its update time and id), so a flow updated between two pages moves to the
// front and is not listed twice; an older flow is never skipped.
import type { Resource } from "@modelcontextprotocol/sdk/types.js";
import { flowSummary, type StoredFlowInfo } from "../../interpreter/index";
import type { FlowSource } from "./flow-source";
import { lookUpFlow } from "./flow-source";
import { flowUri } from "./flow-uri";
import { INVALID_PARAMS, rpcError } from "./rpc-error";

/** How many flows `resources/list` reaches at most: the newest by update time. */
export const MAX_LISTED_FLOWS = 1000;
/** Flows per page (each is read for its name and status). */
export const FLOWS_PAGE_SIZE = 50;
/** A cursor longer than this is not one of ours. */
const MAX_CURSOR_LENGTH = 512;

interface Position {
  readonly modifiedMs: number;
  readonly flowId: string;
}

export interface FlowPage {
  readonly resources: Resource[];
  readonly nextCursor?: string;
}

export async function listFlowResources(
  source: FlowSource,
  cursor: string | undefined,
  limits: { readonly listed: number; readonly page: number } = {
    listed: MAX_LISTED_FLOWS,
    page: FLOWS_PAGE_SIZE,
  },
): Promise<FlowPage> {
  const after = cursor === undefined ? null : decodeCursor(cursor);
  const newest = [...(await source.store.list())].sort(newestFirst).slice(0, limits.listed);
  const start = after === null ? 0 : newest.findIndex((info) => newestFirst(info, after) > 0);
  if (start === -1) return { resources: [] };
  const page = newest.slice(start, start + limits.page);
  const resources: Resource[] = [];
  for (const info of page) {
    const resource = await listed(source, info);
    if (resource !== null) resources.push(resource);
  }
  const last = page.at(-1);
  return start + page.length < newest.length && last !== undefined
    ? { resources, nextCursor: encodeCursor(last) }
    : { resources };
}

/** Newest first, then by id: negative when `a` comes before `b`. */
function newestFirst(a: Position, b: Position): number {
  if (a.modifiedMs !== b.modifiedMs) return b.modifiedMs - a.modifiedMs;
  return a.flowId < b.flowId ? -1 : a.flowId > b.flowId ? 1 : 0;
}

/** A flow's entry; null for one that does not restore (a spec that no longer validates). */
async function listed(source: FlowSource, info: StoredFlowInfo): Promise<Resource | null> {
  const found = await lookUpFlow(source, info.flowId);
  if (found === null) return null;
  const base = {
    uri: flowUri(info.flowId),
    name: info.flowId,
    mimeType: "application/json",
    ...(info.modifiedMs > 0
      ? { annotations: { lastModified: new Date(info.modifiedMs).toISOString() } }
      : {}),
  };
  if (found.kind === "corrupt") return { ...base, title: "corrupt flow", description: found.problem };
  const summary = flowSummary(found.loaded.run);
  const at = summary.current_step_id === null ? "" : `, at ${String(summary.current_step_id)}`;
  return {
    ...base,
    title: String(summary.flow_name),
    description: `${String(summary.status)}: ${String(summary.completed_steps)} of ${String(summary.step_count)} steps done${at}`,
  };
}

function encodeCursor(position: StoredFlowInfo): string {
  return Buffer.from(JSON.stringify([position.modifiedMs, position.flowId]), "utf8").toString("base64url");
}

function decodeCursor(cursor: string): Position {
  const bad = rpcError(INVALID_PARAMS, "Invalid params: params.cursor: not a cursor this server gave");
  if (cursor.length > MAX_CURSOR_LENGTH) throw bad;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw bad;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw bad;
  const [modifiedMs, flowId] = parsed as unknown[];
  if (typeof modifiedMs !== "number" || !Number.isFinite(modifiedMs) || typeof flowId !== "string") throw bad;
  return { modifiedMs, flowId };
}
