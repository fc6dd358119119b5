// The run-time checks of a step result (docs/reference/runtime.md §4.2, docs/reference/runtime.md §4.3), in the order the state machine
// runs them. Each returns the violation texts (empty: passed).
export { CONTRACT_PREFIX, checkContract, conformsToContract } from "./contract";
export { checkOutputSchema, conformsToOutputSchema, OUTPUT_SCHEMA_PREFIX } from "./output-schema";
