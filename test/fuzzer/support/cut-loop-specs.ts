// Specs whose runs the fuzzer cuts at a loop, shared by the in-process and CLI tests of cut-run witnesses.

/** A deploy whose failure rolls back and deploys again: nothing bounds the laps. */
export const RETRY_LOOP = `version: "0.2"
contracts:
  Check:
    ok: { type: boolean }
functions:
  deploy:
    mode: infer
    intent: "Deploy the version"
    input: { version: { type: string } }
    output: Check
    ensure:
      - "result.ok == True"
    retries: 2
  rollback:
    mode: infer
    intent: "Roll the deploy back"
    input: { version: { type: string } }
    output: Check
flows:
  ship:
    input:
      version: { type: string }
    steps:
      - id: deploy
        function: deploy
        inputs: { version: "$.input.version" }
        on_fail: rollback
        next: announce
      - id: rollback
        function: rollback
        inputs: { version: "$.input.version" }
        next: deploy
      - id: announce
        intent: "Announce the release"
        inputs: { version: "$.input.version" }
properties:
  ships:
    flow: ship
    eventually: "$.steps.announce.status == 'done'"
`;
