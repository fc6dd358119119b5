// Flow ids name files (`<id>.json`, docs/reference/runtime.md §14.1), so a store accepts only ids that are a safe file name
// component: no separators, no leading dot, bounded length. Ids we create are UUIDs; anything else
// comes from a caller and simply names no flow.

const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function isSafeFlowId(flowId: string): boolean {
  return SAFE_ID.test(flowId);
}

/** Throws for an id a store cannot hold (a caller's bug: the engine only writes ids it created or read). */
export function assertSafeFlowId(flowId: string): void {
  if (!isSafeFlowId(flowId)) throw new Error(`store: '${flowId}' is not a valid flow id`);
}
