// Graph rules and the flow dependency graph (docs/reference/language.md §9.5.4, docs/reference/runtime.md §2).
import type { FlowDecl } from "../model/types";
import type { SemanticRule } from "../rules/types";
import { analyseFlow } from "./analysis";
import { SPEC_DEPENDENCY_CYCLE } from "./rules/SPEC-DEPENDENCY-CYCLE";
import { SPEC_DEPENDS_ON_DUPLICATE } from "./rules/SPEC-DEPENDS-ON-DUPLICATE";
import { SPEC_DEPENDS_ON_UNKNOWN } from "./rules/SPEC-DEPENDS-ON-UNKNOWN";
import { SPEC_FLOW_RECURSION } from "./rules/SPEC-FLOW-RECURSION";
import { SPEC_GATE_ON_REVISE_EARLIER } from "./rules/SPEC-GATE-ON-REVISE-EARLIER";
import { SPEC_STEP_DUPLICATE_ID } from "./rules/SPEC-STEP-DUPLICATE-ID";
import { SPEC_STEP_UNREACHABLE } from "./rules/SPEC-STEP-UNREACHABLE";
import type { FlowGraph } from "./types";

/** The graph rules, in the catalogue order of docs/reference/language.md §9.5.4. */
export const GRAPH_RULES: readonly SemanticRule[] = [
  SPEC_STEP_DUPLICATE_ID,
  SPEC_DEPENDS_ON_UNKNOWN,
  SPEC_DEPENDS_ON_DUPLICATE,
  SPEC_GATE_ON_REVISE_EARLIER,
  SPEC_FLOW_RECURSION,
  SPEC_DEPENDENCY_CYCLE,
  SPEC_STEP_UNREACHABLE,
];

/** The dependency graph of one flow (memoised per FlowDecl). */
export function buildFlowGraph(flow: FlowDecl): FlowGraph {
  return analyseFlow(flow).graph;
}
