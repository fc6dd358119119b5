// The rules of quorum steps (stratumc's extension, docs/reference/language.md §6.5 and docs/reference/language.md §9.5.4);
// SPEC-QUORUM-MISSING-KEY and SPEC-QUORUM-ONLY-KEY are the table-driven rules of checker/rules/kinds/.
export { SPEC_QUORUM_THRESHOLD_INVALID } from "./SPEC-QUORUM-THRESHOLD-INVALID";
export { SPEC_QUORUM_THRESHOLD_UNREACHABLE } from "./SPEC-QUORUM-THRESHOLD-UNREACHABLE";
