// Checked IR by spec text, for restoring flows: a small LRU (a server usually runs few distinct
// specs; each restore would otherwise re-check the whole text).
import { checkSpec } from "../../checker/check-spec";
import type { CheckedSpec } from "../../checker/ir/types";

export class SpecCache {
  private readonly entries = new Map<string, CheckedSpec | null>();

  constructor(private readonly capacity = 64) {}

  compile(text: string): CheckedSpec | null {
    if (this.entries.has(text)) {
      const hit = this.entries.get(text) ?? null;
      this.entries.delete(text); // move to the most recently used end
      this.entries.set(text, hit);
      return hit;
    }
    const checked = checkSpec(text);
    const ir = checked.valid ? checked.ir : null;
    this.remember(text, ir);
    return ir;
  }

  remember(text: string, ir: CheckedSpec | null): void {
    this.entries.delete(text);
    this.entries.set(text, ir);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
  }
}
