// A clock for tests: time moves only when the test says so, so every duration is deterministic.
import type { Clock } from "../../../interpreter/flow/ports";

/** 2023-11-14T22:13:20Z: any fixed instant works; a realistic one keeps timestamps readable. */
export const MANUAL_CLOCK_EPOCH_MS = 1_700_000_000_000;

export class ManualClock implements Clock {
  private wall: number;
  private mono: number;

  constructor(wallMs = MANUAL_CLOCK_EPOCH_MS, monoMs = 1_000) {
    this.wall = wallMs;
    this.mono = monoMs;
  }

  wallMs(): number {
    return this.wall;
  }

  monoMs(): number {
    return this.mono;
  }

  /** Both clocks move forward by `ms`. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`ManualClock.advance: ${ms} is not a non-negative duration`);
    this.wall += ms;
    this.mono += ms;
  }

  /** Only the wall clock moves (what gate timeouts read). */
  advanceWall(ms: number): void {
    if (!(ms >= 0)) throw new Error(`ManualClock.advanceWall: ${ms} is not a non-negative duration`);
    this.wall += ms;
  }
}
