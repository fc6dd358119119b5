// The expression checker's rule objects, reported by this phase (defined once in checker/expr/rules.ts).
export { exprRule } from "../expr/rules";
