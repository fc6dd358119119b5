// The expression grammar's public surface for the front ends and the fuzzer: the parser, the
// AST and its walker, and the syntax limits.
export type { Expr } from "./ast";
export { MAX_EXPRESSION_DEPTH, MAX_EXPRESSION_LENGTH, type SyntaxDiagnostic } from "./diagnostics";
export { parseExpression } from "./parse";
export { walk } from "./walk";
