// The progress line of `stratumc fuzz` on a terminal's standard error: one line, rewritten in place
// (`\r`, then erase to the end of the line), cleared when fuzzing ends. It is the only place the
// speed of the machine shows: the report on standard output never depends on it.
import { basename } from "node:path";
import type { FuzzProgress } from "../../fuzzer/index";

const ERASE_LINE = "\x1b[K";

export class ProgressLine {
  private file = "";
  private startedMs = 0;
  private shown = false;
  /** When each file started: with --jobs, several are fuzzed at once and the line shows the last to report. */
  private readonly starts = new Map<string, number>();

  constructor(
    private readonly write: (text: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new file starts: its counts start from 0. */
  start(file: string): void {
    this.starts.set(file, this.now());
    this.update({ runs: 0, paths: 0, findings: 0 }, file);
  }

  /** Progress of `file` (default: the file the line shows). */
  update(p: Pick<FuzzProgress, "runs" | "paths" | "findings">, file?: string): void {
    if (file !== undefined) {
      this.file = basename(file);
      this.startedMs = this.starts.get(file) ?? this.now();
    }
    const seconds = (this.now() - this.startedMs) / 1000;
    // No rate before the first run (the clock may already have ticked since start()).
    const rate = p.runs > 0 && seconds > 0 ? `${Math.round(p.runs / seconds)}/s` : "-/s";
    this.write(
      `\rfuzzing ${this.file}: ${p.runs} runs (${rate}), ${p.paths} paths, ${p.findings} finding(s)${ERASE_LINE}`,
    );
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.write(`\r${ERASE_LINE}`);
    this.shown = false;
  }
}
