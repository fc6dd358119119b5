// The progress lines of `install` and `uninstall` (runtime.md §22): `  <item>: <outcome>`, written
// as each item is done (so a failure shows how far it got), and whether anything changed, which
// picks the final line.
export class Report {
  private changedAnything = false;

  constructor(private readonly write: (text: string) => void) {}

  /** One item's line; `changed` says whether this item modified anything on disk. */
  item(item: string, outcome: string, changed: boolean): void {
    this.write(`  ${item}: ${outcome}\n`);
    if (changed) this.changedAnything = true;
  }

  get changed(): boolean {
    return this.changedAnything;
  }

  /** The empty line and the final line. */
  finish(final: string): void {
    this.write(`\n${final}\n`);
  }
}
