// The URIs of flows as MCP resources: `stratum://flows/<flow_id>`.
import { isSafeFlowId } from "../../interpreter/index";

const FLOW_URI_PREFIX = "stratum://flows/";
export const FLOW_URI_TEMPLATE = `${FLOW_URI_PREFIX}{flow_id}`;

export function flowUri(flowId: string): string {
  return `${FLOW_URI_PREFIX}${flowId}`;
}

/**
 * The flow id a URI names; null for any other URI, and for an id no store can hold (so a URI never
 * reaches the store with `..`, a slash or an overlong name in it).
 */
export function flowIdOf(uri: string): string | null {
  if (!uri.startsWith(FLOW_URI_PREFIX)) return null;
  const flowId = uri.slice(FLOW_URI_PREFIX.length);
  return isSafeFlowId(flowId) ? flowId : null;
}
