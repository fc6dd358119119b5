// The text being checked plus its line table, shared by every phase.
import { LineMap } from "./location";

export class SpecSource {
  private lineMap: LineMap | undefined;

  constructor(readonly text: string) {}

  /** The line table, built on first use (a refused oversized text never needs one). */
  get lines(): LineMap {
    this.lineMap ??= new LineMap(this.text);
    return this.lineMap;
  }

  /** 1-based line of a UTF-16 offset. */
  lineOf(offset: number): number {
    return this.lines.position(offset).line;
  }
}
