// The rules of quorum steps (stratumc's extension, docs/language.md §6.5 and docs/language.md §9.5.4).
export { SPEC_QUORUM_AGREE_ON_UNHASHABLE } from "./agree-on-unhashable";
export { SPEC_QUORUM_MISSING_KEY } from "./missing-key";
export { SPEC_QUORUM_ONLY_KEY } from "./only-key";
export { SPEC_QUORUM_THRESHOLD_INVALID, SPEC_QUORUM_THRESHOLD_UNREACHABLE } from "./threshold";
