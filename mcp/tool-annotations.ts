// What a tool does to its world, as MCP's tool annotations say it (tools/list `annotations`):
// clients decide from them which calls need the person's approval. Each tool takes one of these
// kinds; docs/guides/mcp-server-typed.md has the table with the reasons, and
// test/mcp/tool-annotations.test.ts runs every tool over a file store to check what they claim.
//
// "The world" is the flow store, the files of the workspace and the agents a tool starts.
// Idempotent means a repeat of the same call right after changes nothing more. A call that moves a
// flow on (step_done, gate_resolve, skip_step, …) is not: its step can become current again (a
// retry, a revise round, a loop), and a repeat then acts on that later visit.

/** The four hints of MCP's ToolAnnotations, every one stated (the protocol's defaults are the unsafe side). */
export interface ToolHints {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** Changes nothing: a check, a report, a read of the store or of files. */
export const READS: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Adds to a flow (a new flow, a result, a record) and moves it on; keeps what was recorded. */
export const ADVANCES: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** Moves a flow on only once: a repeat finds it done (already_advanced, already started, …). */
export const SETTLES: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Decides a flow's course for good: may end the flow or send it back, discarding a round's work. */
export const DECIDES: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

/** Replaces what was there (a checkpoint, the flow's state, a file, a running agent), the same way on a repeat. */
export const REPLACES: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
};

/** Starts AI agents that act on the workspace and call out to their model: an open world. */
export const STARTS_AGENTS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** Records what a verifier agent answers (it reads a copy of the evidence; it calls out to its model). */
export const ASKS_AGENT: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true,
};

/** Starts agents once for a step (a repeat answers already_started); they may change the workspace. */
export const DISPATCHES_AGENTS: ToolHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: true,
};
