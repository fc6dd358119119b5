// The evaluation budget (docs/reference/language.md §10.15): steps are charged before the work is done.
import { PyError } from "./errors";

export const DEFAULT_BUDGET = 1_000_000;

export class Budget {
  private used = 0;
  constructor(readonly limit: number = DEFAULT_BUDGET) {}
  /** Charges `n` steps; throws BudgetExceeded when the total passes the limit. */
  charge(n: number): void {
    this.used += n;
    if (this.used > this.limit) {
      throw new PyError("BudgetExceeded", `expression exceeded its evaluation budget (${this.limit} steps)`);
    }
  }
  get spent(): number {
    return this.used;
  }
}
