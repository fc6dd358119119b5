// The expression interpreter's public surface.
export { compileExpression } from "./eval/compile";
export type { CompiledExpression, EvalContext, PathSource } from "./eval/context";
export { type EvaluateOptions, evaluate } from "./eval/evaluate";
