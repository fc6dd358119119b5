// The text being checked plus its line table, shared by every phase.
import { LineMap } from "./location";

export class SpecSource {
  readonly lines: LineMap;

  constructor(readonly text: string) {
    this.lines = new LineMap(text);
  }

  /** 1-based line of a UTF-16 offset. */
  lineOf(offset: number): number {
    return this.lines.position(offset).line;
  }
}
