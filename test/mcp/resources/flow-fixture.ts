// Flows planned through the engine over a MemoryStore, for the resource tests: a FlowSource over
// that store, with a clock the test moves.
import {
  type Clock,
  createApi,
  MemoryStore,
  restoreRun,
  SpecCache,
  type StratumApi,
} from "../../../interpreter/index";
import type { FlowSource } from "../../../mcp/resources/flow-source";
import { fromJsonValue } from "../../../stdlib/index";
import { NO_WORKSPACE } from "../../support/no-workspace";

const TWO_STEPS = `version: "0.2"
contracts:
  Out:
    text: { type: string }
functions:
  work:
    mode: infer
    intent: "Do the work"
    input: {}
    output: Out
flows:
  two:
    input: {}
    steps:
      - id: first
        function: work
        inputs: {}
      - id: second
        function: work
        inputs: {}
`;

export interface Fixture {
  readonly api: StratumApi;
  readonly store: MemoryStore;
  readonly source: FlowSource;
  /** Sets the wall clock (ms), which stamps the store's modifiedMs. */
  at(ms: number): void;
  /** Plans a flow of TWO_STEPS; its id. */
  plan(): Promise<string>;
  /** Reports the first step with this text. */
  firstDone(flowId: string, text: string): Promise<void>;
}

export function fixture(): Fixture {
  let now = 1_700_000_000_000;
  let next = 0;
  const clock: Clock = { wallMs: () => now, monoMs: () => now };
  const store = new MemoryStore(() => now);
  const api = createApi({
    store,
    clock,
    ids: { newFlowId: () => `00000000-0000-4000-8000-${String(++next).padStart(12, "0")}` },
    cwd: "/",
    files: () => null,
    workspace: NO_WORKSPACE,
  });
  const specs = new SpecCache();
  const source: FlowSource = {
    store,
    clock,
    restore: (state) => restoreRun(state, (text) => specs.compile(text), clock),
  };
  return {
    api,
    store,
    source,
    at: (ms) => {
      now = ms;
    },
    plan: async () => String((await api.plan({ spec: TWO_STEPS, flow: "two" })).flow_id),
    firstDone: async (flowId, text) => {
      await api.stepDone({ flow_id: flowId, step_id: "first", result: fromJsonValue({ text }) });
    },
  };
}
