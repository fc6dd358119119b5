// FUZZ-PROPERTY-VIOLATED: a run of the flow breaks a property the author stated.
import { defineRule } from "../rule";

export const FUZZ_PROPERTY_VIOLATED = defineRule({
  code: "FUZZ-PROPERTY-VIOLATED",
  severity: "error",
  family: "fuzz",
  errorType: "ir_semantic_error",
  title: "a run of the flow breaks one of the spec's properties",
  doc:
    "The spec's `properties` block states what must hold on every run of a flow: `always` in every " +
    "state, `never` in none, `eventually` in some state of each run (a run the fuzzer cut at its call " +
    "limit does not satisfy it), `leads_to` a `to` state after every `from` state. The fuzzer found " +
    "a run that breaks the property; the finding's counterexample is the shortest such run it could " +
    "find, replayable with `stratumc replay`. Fix the flow (a route, a gate, a bound), or the " +
    "property if it says more than the flow promises.",
  example: {
    bad: "properties:\n  approved_before_deploy:\n    flow: release\n    always: \"$.steps.deploy.status != 'done' or $.gates.sign_off.outcome == 'approve'\"\n# deploy's on_kill route runs deploy after a kill",
    good: "# sign_off: on_kill: ~ (a kill ends the flow before deploy)",
  },
  message: (property: string, kind: string, flow: string, what: string) =>
    `property '${property}' (${kind}) does not hold on a run of flow '${flow}': ${what}`,
});
