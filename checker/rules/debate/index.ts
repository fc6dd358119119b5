// The rules of debate steps (stratumc's extension, docs/reference/language.md §6.7 and docs/reference/language.md §9.5.4).
export { SPEC_DEBATE_CONTRACT_UNDEFINED } from "./SPEC-DEBATE-CONTRACT-UNDEFINED";
export { SPEC_DEBATE_MISSING_KEY } from "./SPEC-DEBATE-MISSING-KEY";
export { SPEC_DEBATE_ONLY_KEY } from "./SPEC-DEBATE-ONLY-KEY";
