// A version 0.3 spec with the expression fields of stratumc's step kinds: a parallel_dispatch
// step's `validate`, a quorum step's `agree_on` and a debate step's `converge`, for the editor
// service tests (the fields' names: docs/reference/language.md §6.4, docs/reference/language.md §6.5, docs/reference/language.md §6.7).
export const SPEC03 = `version: "0.3"
contracts:
  Task:
    id: {type: string}
    description: {type: string}
  TaskGraph:
    tasks: {type: array, items: {type: Task}}
  Report:
    tests_added: {type: integer}
    summary: {type: string}
  Classification:
    severity: {type: string}
  Argument:
    position: {type: string}
    points: {type: array, items: {type: string}}
  Decision:
    choice: {type: string}
flows:
  main:
    input: {}
    steps:
      - id: plan
        type: decompose
        agent: claude
        intent: "Plan"
        output_contract: TaskGraph
      - id: run
        type: parallel_dispatch
        source: "$.steps.plan.output.tasks"
        intent_template: "Do {task.description}"
        depends_on: [plan]
        member_contract: Report
        require: 0
        validate: "sum(r.tests_added for r in results) >= len($.steps.plan.output.tasks) and len(failed) == 0"
      - id: classify
        type: quorum
        intent: "Classify"
        output_contract: Classification
        runs: 3
        agree_on: "result.severity"
        depends_on: [run]
      - id: design
        type: debate
        intent: "Argue"
        debaters: [{id: pro, agent: claude}, {id: con, agent: codex}]
        rounds: 3
        argument_contract: Argument
        converge: "round_number >= 2 and all(a.position == round[0].position for a in round) and len(history) > 0"
        synthesis: {intent: Decide, output_contract: Decision}
        depends_on: [classify]
`;
