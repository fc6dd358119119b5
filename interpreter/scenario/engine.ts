// The engine a scenario test runs on: the real one (createApi, as the MCP server and the fuzzer
// use it) over an in-memory store, with a clock that never moves and numbered flow ids, so that a
// test gives the same answers on every machine and every run.
import type { FileAccess } from "../../stdlib/index";
import type { StratumApi } from "../api";
import { createApi } from "../engine/create-api";
import type { Clock, IdSource } from "../flow/ports";
import { MemoryStore } from "../store/memory-store";
import type { WorkspaceFs } from "../workspace/workspace";

const FIXED_CLOCK: Clock = { wallMs: () => 1_700_000_000_000, monoMs: () => 1_000 };

class NumberedIds implements IdSource {
  private next = 1;
  newFlowId(): string {
    return `00000000-0000-4000-8000-${(this.next++).toString(16).padStart(12, "0")}`;
  }
}

/** The workspace tools are not part of a scenario: they see an empty project. */
const NO_WORKSPACE: WorkspaceFs = {
  readDir: () => ({ ok: false, reason: "not available in a scenario test" }),
  isDirectory: () => false,
  readFile: () => ({ ok: false, reason: "not available in a scenario test" }),
  writeFile: () => ({ ok: false, reason: "not available in a scenario test" }),
  realpath: (path) => path,
};

/** A fresh engine for one test; `files` is what the file builtins see (null: none). */
export function scenarioEngine(files: FileAccess | null, cwd: string): StratumApi {
  return createApi({
    store: new MemoryStore(),
    clock: FIXED_CLOCK,
    ids: new NumberedIds(),
    cwd,
    files: () => files,
    workspace: NO_WORKSPACE,
  });
}
