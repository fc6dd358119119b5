// The rules of race steps (stratumc's extension, docs/design/concurrency-constructs.md §3 and docs/reference/language.md §9.5.4).
export { SPEC_RACE_MISSING_KEY } from "./SPEC-RACE-MISSING-KEY";
export { SPEC_RACE_ONLY_KEY } from "./SPEC-RACE-ONLY-KEY";
