// Flow ids for tests: valid lowercase UUID v4 strings, numbered in order of creation, so a failing
// test names the same ids on every run.
import type { IdSource } from "../../../interpreter/flow/ports";

const MAX_SERIAL = 0xffff_ffff_ffff;

export class SequentialIds implements IdSource {
  private next = 1;

  /** `seed` (0–0xfff) goes into the fourth group, so two sources never hand out the same id. */
  constructor(private readonly seed = 0) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xfff) {
      throw new Error(`SequentialIds: seed ${seed} is outside 0..0xfff`);
    }
  }

  newFlowId(): string {
    const serial = this.next++;
    if (serial > MAX_SERIAL) throw new Error("SequentialIds: out of ids");
    // Version nibble 4 in the third group, variant 10xx (8) in the fourth.
    const variant = (0x8000 | this.seed).toString(16);
    return `00000000-0000-4000-${variant}-${serial.toString(16).padStart(12, "0")}`;
  }

  /** How many ids were handed out. */
  get issued(): number {
    return this.next - 1;
  }
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
