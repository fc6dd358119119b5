// A small spec with a function step and a gate, shared by the tests of `stratumc ui`.
export const GATE_SPEC = `version: "0.2"
contracts:
  Draft:
    text: {type: string}
functions:
  write:
    mode: infer
    intent: "Write the draft"
    input: {topic: {type: string}}
    output: Draft
    ensure:
      - "len(result.text) > 3"
    retries: 2
  review:
    mode: gate
flows:
  main:
    input: {topic: {type: string}}
    steps:
      - id: draft
        function: write
        inputs: {topic: "$.input.topic"}
      - id: approve
        function: review
        on_approve: ~
        on_revise: draft
        on_kill: ~
        depends_on: [draft]
`;
