// What `stratumc init` writes: the starter spec (checks clean; its first line is the
// yaml-language-server modeline pointing at the schema file init writes next to it), the
// pre-commit hook entry and the editor's schema association.
import { VERSION } from "../version";

export const STARTER_FILE = "plan.stratum.yaml";
/** The JSON Schema written by init (`stratumc schema`), relative to the project directory. */
export const SCHEMA_FILE = ".stratum/spec.schema.json";
/** The yaml-language-server modeline of a spec in the project directory (paths are relative to the file). */
const MODELINE = `# yaml-language-server: $schema=./${SCHEMA_FILE}`;
export const SPEC_GLOBS = ["**/*.stratum.yaml", "**/*.stratum.yml"] as const;

export const PRE_COMMIT_FILE = ".pre-commit-config.yaml";
export const HOOK_ID = "stratumc-check";
const HOOK_REPO = "https://github.com/stratumc/stratumc";
export const HOOK_ENTRY = { repo: HOOK_REPO, rev: `v${VERSION}`, hooks: [{ id: HOOK_ID }] };

export const VSCODE_SETTINGS = ".vscode/settings.json";
/** The `yaml.schemas` key (a path relative to the workspace folder) and its value. */
export const VSCODE_SCHEMA_KEY = `./${SCHEMA_FILE}`;

export const STARTER_SPEC = `${MODELINE}
# A starter spec: an agent drafts a plan, a human approves it or asks for a revision.
# Check it with \`stratumc check\`; \`stratumc explain CODE\` explains any diagnostic.
version: "0.2"

contracts:
  Plan:
    summary: {type: string}
    tasks: {type: array}

functions:
  draft_plan:
    mode: infer
    intent: "Write a short plan for the goal: a one-line summary and the tasks in order"
    input: {goal: {type: string}}
    output: Plan
    ensure:
      - "len(result.tasks) > 0"
    retries: 2
  approve_plan:
    mode: gate

flows:
  plan:
    input: {goal: {type: string}}
    output: Plan
    max_rounds: 3
    steps:
      - id: draft
        function: draft_plan
        inputs: {goal: "$.input.goal"}
      - id: review
        function: approve_plan
        depends_on: [draft]
        on_approve: ~
        on_revise: draft
        on_kill: ~
`;
