// The rules of quorum steps (stratumc's extension, docs/reference/language.md §6.5 and docs/reference/language.md §9.5.4).
export { SPEC_QUORUM_MISSING_KEY } from "./SPEC-QUORUM-MISSING-KEY";
export { SPEC_QUORUM_ONLY_KEY } from "./SPEC-QUORUM-ONLY-KEY";
export { SPEC_QUORUM_THRESHOLD_INVALID } from "./SPEC-QUORUM-THRESHOLD-INVALID";
export { SPEC_QUORUM_THRESHOLD_UNREACHABLE } from "./SPEC-QUORUM-THRESHOLD-UNREACHABLE";
