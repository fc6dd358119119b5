// The reader worker's warm-up (reader-worker.ts): on a fresh server, the first answer about a long
// flow (first-page.ts) is the first time the worker runs the YAML loader, the structure phase and
// the page's assembly, and run cold on a 100-step window they take about a third longer than once
// warm (docs/design/performance-findings.md, "The first answer before the check"). The worker runs
// them once as soon as it starts, before any request can come: on the store's most recently changed
// flow when that is a long one (FlowSource.prefetchNewest), else on a made-up flow of the same shape.
import type { FlowPage } from "./api-types";
import { FIRST_PAGE_MAX_ENTRIES, firstPage } from "./first-page";
import { PAGE_SIZE } from "./views";

/** One window of steps: what a first answer cuts out of a long spec and loads. */
const WARM_STEPS = PAGE_SIZE;

/** A flow of WARM_STEPS steps and a gate, stopped halfway, with one journal entry; its spec's text. */
function madeUpFlow(): { readonly text: string; readonly deltas: readonly string[] } {
  const items: string[] = [];
  for (let i = 0; i < WARM_STEPS; i++)
    items.push(`      - id: s${i}`, "        function: f", "        inputs: {}");
  const spec = [
    'version: "0.2"',
    "contracts:",
    "  R:",
    "    name: {type: string}",
    "functions:",
    "  f:",
    "    mode: infer",
    '    intent: "do one part"',
    "    input: {}",
    "    output: R",
    "  review:",
    "    mode: gate",
    "flows:",
    "  main:",
    "    input: {}",
    "    steps:",
    ...items,
    "      - id: approve",
    "        function: review",
    "        on_approve: ~",
    "        on_revise: s0",
    "        on_kill: ~",
    "",
  ].join("\n");
  const half = WARM_STEPS / 2;
  const record = (i: number): Record<string, unknown> => ({
    step_id: `s${i}`,
    function_name: "f",
    attempts: 1,
    type: "step",
    round: 0,
  });
  const done = Array.from({ length: half }, (_, i) => i);
  const state = {
    flow_id: "warm-up",
    flow_name: "main",
    raw_spec: spec,
    inputs: {},
    step_outputs: Object.fromEntries(done.map((i) => [`s${i}`, { name: `part ${i}` }])),
    records: done.map(record),
    attempts: Object.fromEntries(done.map((i) => [`s${i}`, 1])),
    current_idx: half,
    round: 0,
    rounds: [],
    terminal_status: null,
    parent_flow_id: null,
    active_child_flow_id: null,
    revision: 1,
    status: "running",
  };
  const entry = {
    revision: 2,
    status: "running",
    set: { current_idx: half + 1 },
    append: { records: [record(half)] },
    put: { step_outputs: { [`s${half}`]: { name: `part ${half}` } }, attempts: { [`s${half}`]: 1 } },
  };
  return { text: JSON.stringify(state), deltas: [JSON.stringify(entry)] };
}

/** The first page of the made-up flow, built as a long flow's is (null only if that path broke). */
export function warmFirstPage(): FlowPage | null {
  const { text, deltas } = madeUpFlow();
  return firstPage("warm-up", { text, deltas, revision: 2, token: "" }, {}, FIRST_PAGE_MAX_ENTRIES, 0);
}
