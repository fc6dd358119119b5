// The diagnostics of a scenario test file (`*.stratum-test.yaml`, docs/guides/testing-a-spec.md):
// its shape, the spec it names, the flow's steps it answers and the results it reports. The
// checker reports them in `check` and in the editor; `stratumc test` refuses to run a file that has
// any of them.

import { TEST_RESULT_CONTRACT } from "./TEST-RESULT-CONTRACT";
import { TEST_SCHEMA } from "./TEST-SCHEMA";
import { TEST_SPEC } from "./TEST-SPEC";
import { TEST_UNKNOWN_STEP } from "./TEST-UNKNOWN-STEP";

export const SCENARIO_RULES = [TEST_SCHEMA, TEST_SPEC, TEST_UNKNOWN_STEP, TEST_RESULT_CONTRACT] as const;
