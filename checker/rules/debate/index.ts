// The rules of debate steps (stratumc's extension, docs/reference/language.md §6.7 and docs/reference/language.md §9.5.4);
// SPEC-DEBATE-MISSING-KEY and SPEC-DEBATE-ONLY-KEY are the table-driven rules of checker/rules/kinds/.
export { SPEC_DEBATE_CONTRACT_UNDEFINED } from "./SPEC-DEBATE-CONTRACT-UNDEFINED";
