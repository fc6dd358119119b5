// The spec-kit example of docs/reference/runtime.md §19.4: one task file and the exact spec text the section
// shows for it (shared by the compiler tests and the CLI compile tests).

/** The example task of docs/reference/runtime.md §19.4 and the exact spec text the section shows for it. */
export const EXAMPLE_TASK = `# Task: Set up project

Create the skeleton.

## Acceptance Criteria
- [ ] file src/index.ts exists
- [x] All tests pass
- [ ] Code is readable
`;

export const EXAMPLE_YAML = `version: '0.1'
contracts:
  TaskResult:
    done:
      type: boolean
functions:
  t01_setup:
    mode: compute
    intent: |-
      Set up project
      Create the skeleton.
      Also verify: Code is readable
    input:
      task_context:
        type: string
    output: TaskResult
    ensure:
    - file_exists("src/index.ts")
    - result.tests_pass == True
    - result.done == True
    retries: 2
flows:
  tasks:
    input:
      project_context:
        type: string
    output: TaskResult
    steps:
    - id: t01_setup
      function: t01_setup
      inputs:
        task_context: $.input.project_context
      output_schema:
        type: object
        required:
        - done
        - tests_pass
        properties:
          done:
            type: boolean
          tests_pass:
            type: boolean
`;
