// STUB (lead): builds the checked IR from a valid model.
import type { FlowGraph } from "../graph/types";
import type { FlowDecl, SpecModel } from "../model/types";
import type { ExpressionTable } from "../spec-expr/types";
import type { CheckedSpec } from "./types";

export function buildIR(
  _model: SpecModel,
  _expressions: ExpressionTable,
  _graph: (flow: FlowDecl) => FlowGraph,
): CheckedSpec {
  throw new Error("buildIR: not implemented yet");
}
