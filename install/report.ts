// The progress lines of `install` and `uninstall` (docs/reference/runtime.md §22): `  <item>: <outcome>`, notes
// indented under the item they explain, then an empty line and the final line. Everything is
// planned before anything is written (changes.ts), so the lines are kept and printed only once the
// plan has been carried out: a command that fails prints its error and no progress lines.
export class Report {
  private changedAnything = false;
  private readonly lines: string[] = [];

  constructor(private readonly write: (text: string) => void) {}

  /** One item's line; `changed` says whether this item modifies anything on disk. */
  item(item: string, outcome: string, changed: boolean): void {
    this.lines.push(`  ${item}: ${outcome}\n`);
    if (changed) this.changedAnything = true;
  }

  /** A line explaining the item before it. */
  note(text: string): void {
    this.lines.push(`    ${text}\n`);
  }

  get changed(): boolean {
    return this.changedAnything;
  }

  /** Every line, the empty line and the final line. */
  finish(final: string): void {
    this.write(`${this.lines.join("")}\n${final}\n`);
  }
}
