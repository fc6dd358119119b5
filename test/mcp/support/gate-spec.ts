// A flow that waits at a gate once its first step is done: the spec the MCP tests of gates over
// each transport (and of stopping during a gate) plan.
export const DRAFT_GATE_SPEC = `version: "0.2"
functions:
  approval:
    mode: gate
    intent: "Approve the draft"
    timeout: 3600
flows:
  publish:
    input: {}
    steps:
      - id: draft
        intent: "Draft it"
        inputs: {}
      - id: review
        function: approval
        depends_on: [draft]
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;
