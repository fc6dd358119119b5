// Graph rules and the flow dependency graph. STUB: filled by the graph work.
import type { FlowDecl } from "../model/types";
import type { SemanticRule } from "../rules/types";
import type { FlowGraph } from "./types";

export const GRAPH_RULES: readonly SemanticRule[] = [];

export function buildFlowGraph(_flow: FlowDecl): FlowGraph {
  throw new Error("buildFlowGraph: not implemented yet");
}
