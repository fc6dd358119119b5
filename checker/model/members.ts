// The members of stratumc's race and debate steps (docs/design/concurrency-constructs.md §3 and
// docs/design/concurrency-constructs.md §5), read from a valid `candidates` / `debaters` list: each
// entry's id, agent and intent as written, with its node for diagnostics. A `candidates` count is
// read by the IR (c1 … cN have no entries).
import type { MapNode } from "../yaml/nodes";
import type { StepDecl } from "./types";

export interface MemberDecl {
  readonly id: string;
  readonly agent: string | null;
  readonly intent: string | null;
  readonly node: MapNode;
  /** Its position in the list. */
  readonly index: number;
}

/** The written members of a valid list under `key` (empty when the key is absent, invalid or a count). */
export function memberDecls(step: StepDecl, key: "candidates" | "debaters"): MemberDecl[] {
  const seq = step.seq(key);
  if (seq === null) return [];
  const out: MemberDecl[] = [];
  for (const [index, item] of seq.value.items.entries()) {
    if (item.kind !== "map") continue;
    const id = text(item, "id");
    if (id === null) continue;
    out.push({ id, agent: text(item, "agent"), intent: text(item, "intent"), node: item, index });
  }
  return out;
}

function text(map: MapNode, key: string): string | null {
  const value = map.get(key)?.value;
  return value?.kind === "scalar" && typeof value.value === "string" ? value.value : null;
}
