// Checked specs by text: a small LRU (a server usually runs few distinct specs; every plan and
// every restore would otherwise re-check the whole text). Entries keep the error diagnostics
// (what stratum_plan answers for an invalid spec) and the checked IR of a valid one.
import { type CheckResult, checkSpec, isOversized } from "../../checker/check-spec";
import type { CheckedSpec } from "../../checker/ir/types";
import type { CheckedText } from "../flow/tx";

export class SpecCache {
  private readonly entries = new Map<string, CheckedText>();

  constructor(private readonly capacity = 64) {}

  check(text: string): CheckedText {
    const hit = this.entries.get(text);
    if (hit !== undefined) {
      this.entries.delete(text); // move to the most recently used end
      this.entries.set(text, hit);
      return hit;
    }
    // Entries keep errors and the IR only: the control model's warnings are not worth deciding.
    return this.remember(text, checkSpec(text, { control: false }));
  }

  /** Keeps a check made elsewhere of `text` (it must be a `checkSpec(text, …)` result); its entry. */
  remember(text: string, checked: CheckResult): CheckedText {
    const entry: CheckedText = { errors: checked.errors, ir: checked.valid ? checked.ir : null };
    // A text refused for its size is answered at once and never kept (64 of them would pin GBs).
    if (isOversized(checked)) return entry;
    this.entries.set(text, entry);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    return entry;
  }

  compile(text: string): CheckedSpec | null {
    return this.check(text).ir;
  }
}
