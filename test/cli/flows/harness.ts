// Test support for the flow commands (query, gate, flows prune): a temporary STRATUM_HOME, an
// engine over the file store there (deterministic flow ids, so file-name order is known), and the
// commands run in process with an injected host, as `runCli` runs them.
import { existsSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import type { CliHost, CommandContext } from "../../../cli/command-context";
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, UsageError } from "../../../cli/exit-codes";
import { registerFlows } from "../../../cli/flows/command";
import { registerGate } from "../../../cli/gate/command";
import { registerQuery } from "../../../cli/query/command";
import { FileFlowStore } from "../../../host/file-store/file-store";
import { readFlowFiles } from "../../../host/file-store/flow-files";
import type { StratumApi } from "../../../interpreter/api";
import { createApi } from "../../../interpreter/engine/create-api";
import { encodeFlowState } from "../../../interpreter/store/codec";
import { decodeStoredFlow } from "../../../interpreter/store/stored-state";
import { parseJson } from "../../../stdlib/values/json";
import type { PyValue } from "../../../stdlib/values/value";
import { NO_WORKSPACE } from "../../support/no-workspace";

/**
 * `reviewed`: an infer step then a gate (max_rounds 1). `routed`: an inline step, a gate routing
 * approve to a `flag` gate (auto-approved by the policy loop) and kill to a cleanup step.
 */
export const SPEC = `version: "0.2"
contracts:
  Draft:
    text: {type: string}
functions:
  write:
    mode: infer
    intent: "Write a draft"
    input: {}
    output: Draft
    ensure:
      - "result.text != 'bad'"
    retries: 2
  review:
    mode: gate
    timeout: 3600
  second_look:
    mode: gate
flows:
  reviewed:
    input: {}
    max_rounds: 1
    steps:
      - id: draft
        function: write
      - id: review
        function: review
        on_approve: ~
        on_revise: draft
        on_kill: ~
  routed:
    input: {}
    steps:
      - id: prepare
        intent: "Prepare the review"
      - id: review
        function: review
        on_approve: double_check
        on_revise: prepare
        on_kill: cleanup
      - id: cleanup
        intent: "Clean up after a kill"
      - id: double_check
        function: second_look
        policy: flag
        on_approve: ~
        on_revise: prepare
        on_kill: ~
`;

export interface CliAnswer {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export class TestHome {
  readonly home = mkdtempSync(join(tmpdir(), "stratum-home-"));
  private nextId = 1;

  /** Flow ids 00000000-0000-4000-8000-000000000001, …002, … (their file names sort in creation order). */
  readonly ids = {
    newFlowId: (): string => `00000000-0000-4000-8000-${(this.nextId++).toString(16).padStart(12, "0")}`,
  };

  /** An engine as an MCP server would run it, over the flow files of this home. */
  api(): StratumApi {
    let now = 1_000_000;
    return createApi({
      store: new FileFlowStore(this.home),
      clock: { wallMs: () => now, monoMs: () => now++ },
      ids: this.ids,
      cwd: this.home,
      files: () => null,
      workspace: NO_WORKSPACE,
      verifyEdits: true,
    });
  }

  host(): CliHost {
    return {
      cwd: this.home,
      env: { STRATUM_HOME: this.home },
      stdoutIsTTY: false,
      stderrIsTTY: false,
      readStdin: async () => new Uint8Array(),
    };
  }

  /** Runs the flow commands in process, with runCli's handling of usage and internal errors. */
  async cli(args: readonly string[], programName = "stratumc"): Promise<CliAnswer> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    let exitCode = EXIT_OK;
    const io = { out: (t: string) => void stdout.push(t), err: (t: string) => void stderr.push(t) };
    const program = new Command(programName)
      .exitOverride()
      .configureOutput({ writeOut: io.out, writeErr: io.err });
    const ctx: CommandContext = {
      io,
      host: this.host(),
      programName,
      setExitCode: (code) => {
        exitCode = code;
      },
    };
    registerQuery(program, ctx);
    registerGate(program, ctx);
    registerFlows(program, ctx);
    try {
      await program.parseAsync([...args], { from: "user" });
    } catch (e) {
      if (e instanceof CommanderError) exitCode = e.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
      else if (e instanceof UsageError) {
        io.err(`${programName}: ${e.message}\n`);
        exitCode = EXIT_USAGE;
      } else {
        io.err(`${programName}: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
        exitCode = EXIT_INTERNAL;
      }
    }
    return { code: exitCode, stdout: stdout.join(""), stderr: stderr.join("") };
  }

  flowFile(flowId: string): string {
    return join(this.home, "flows", `${flowId}.json`);
  }

  journalFile(flowId: string): string {
    return join(this.home, "flows", `${flowId}.journal`);
  }

  /** The flow's complete current text: the snapshot's own text when it has no journal entries. */
  flowText(flowId: string): string {
    const files = readFlowFiles({ snapshot: this.flowFile(flowId), journal: this.journalFile(flowId) });
    if (files === null) throw new Error(`flow ${flowId} is not stored`);
    if (files.deltas.length === 0) return files.text;
    const decoded = decodeStoredFlow({ ...files, token: "" });
    if (!decoded.ok) throw new Error(`flow ${flowId} does not decode: ${decoded.reason}`);
    return encodeFlowState(decoded.state);
  }

  /** Sets the flow file's modification time `days` days before now. */
  age(flowId: string, days: number): void {
    const t = new Date(Date.now() - days * 86_400_000);
    utimesSync(this.flowFile(flowId), t, t);
    if (existsSync(this.journalFile(flowId))) utimesSync(this.journalFile(flowId), t, t);
  }

  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** The id of flow number `n` of a TestHome. */
export function flowId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

/** A step result from JSON text (kind-preserving, as the MCP server decodes it). */
export function result(json: string): PyValue {
  return parseJson(json);
}
