// Flow ids name files (`<id>.json`, docs/reference/runtime.md §14.1), so a store accepts only ids that are a safe file name
// component: no separators, no leading dot, bounded length. Ids we create are UUIDs; anything else
// comes from a caller and simply names no flow.

/**
 * Whether `flowId` is 1 to 128 of `[A-Za-z0-9._-]`, not starting with a dot. A loop over the
 * characters rather than a regular expression: every call asks it of its flow id more than once,
 * and the expression was 1.5 % of a bare transition.
 */
export function isSafeFlowId(flowId: string): boolean {
  const n = flowId.length;
  if (n === 0 || n > 128 || flowId.charCodeAt(0) === DOT) return false;
  for (let i = 0; i < n; i++) if (!isIdChar(flowId.charCodeAt(i))) return false;
  return true;
}

const DOT = 0x2e;

function isIdChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x30 && c <= 0x39) || // 0-9
    (c >= 0x41 && c <= 0x5a) || // A-Z
    c === 0x2d || // -
    c === 0x5f || // _
    c === DOT
  );
}

/** Throws for an id a store cannot hold (a caller's bug: the engine only writes ids it created or read). */
export function assertSafeFlowId(flowId: string): void {
  if (!isSafeFlowId(flowId)) throw new Error(`store: '${flowId}' is not a valid flow id`);
}
