// Which database of a partitioned store holds a flow: rendezvous (highest random weight) hashing
// of the flow id against each partition's name. Every flow goes to the partition whose
// (name, flow id) pair hashes highest, so the choice depends on the set of names only, not on
// their order in the list, and adding a partition moves only the flows it now wins (about
// 1 / (n + 1) of them), each from wherever it was to the new one; removing one moves only its own.

import { createHash } from "node:crypto";

/** The weight of a flow on a partition: the first 48 bits of SHA-256(name NUL flow id). */
function weight(name: string, flowId: string): number {
  return createHash("sha256").update(name).update("\0").update(flowId).digest().readUIntBE(0, 6);
}

/** The index in `names` of the partition that holds `flowId` (names are distinct; at least one). */
export function partitionOf(flowId: string, names: readonly string[]): number {
  let best = 0;
  let bestWeight = -1;
  for (const [i, name] of names.entries()) {
    const w = weight(name, flowId);
    // A tie (one in 2^48) goes to the smaller name, so it does not depend on the list's order.
    if (w > bestWeight || (w === bestWeight && name < names[best]!)) {
      best = i;
      bestWeight = w;
    }
  }
  return best;
}
