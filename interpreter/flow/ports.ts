// The injected sources of time and identity (the core reads no clock and draws no random numbers
// of its own), so that transitions are deterministic in tests.

export interface Clock {
  /** Wall-clock time in milliseconds since the epoch (gate dispatch, gate timeouts). */
  wallMs(): number;
  /** A monotonic time in milliseconds (step durations, flow durations). */
  monoMs(): number;
}

export interface IdSource {
  /** A new flow id: a random UUID version 4, lowercase, hyphenated. */
  newFlowId(): string;
}
