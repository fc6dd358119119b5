// Vocabulary of the generated specs: names and prose that look like real agent workflows.

export const CONTRACT_NAMES = [
  "Plan",
  "Finding",
  "Review",
  "Summary",
  "Patch",
  "TestReport",
  "Hypothesis",
  "Evidence",
  "Draft",
  "Outline",
  "Incident",
  "Ticket",
  "Risk",
  "Metric",
  "Change",
  "Release",
  "Section",
  "Question",
  "Answer",
  "Source",
  "Task",
  "Diagnosis",
  "Verdict",
  "Estimate",
  "Migration",
  "Audit",
] as const;

export const FIELD_NAMES = {
  string: [
    "summary",
    "title",
    "rationale",
    "description",
    "diff",
    "body",
    "root_cause",
    "file",
    "owner",
    "message",
    "url",
    "notes",
    "path",
    "reason",
  ],
  number: ["score", "confidence", "coverage", "cost", "ratio", "quality"],
  integer: ["count", "line", "priority", "attempts", "total", "duration_ms", "word_count"],
  boolean: ["approved", "passed", "done", "tests_pass", "blocking", "reproduced", "complete"],
  array: ["items", "files", "findings", "tasks", "sources", "tags", "changes", "steps", "questions"],
  object: ["meta", "metrics", "context", "details"],
} as const;

export const ENUMS: readonly (readonly [string, readonly string[]])[] = [
  ["severity", ["low", "medium", "high", "critical"]],
  ["status", ["open", "closed", "blocked"]],
  ["risk", ["low", "medium", "high"]],
  ["verdict", ["accept", "reject", "revise"]],
  ["kind", ["bug", "feature", "chore", "docs"]],
];

export const VERBS = [
  "draft",
  "review",
  "plan",
  "summarise",
  "triage",
  "verify",
  "collect",
  "analyse",
  "write",
  "check",
  "rank",
  "extract",
  "fix",
  "test",
  "outline",
  "estimate",
  "design",
  "audit",
] as const;

export const NOUNS = [
  "outline",
  "patch",
  "findings",
  "sources",
  "release_notes",
  "tests",
  "risks",
  "changes",
  "answer",
  "evidence",
  "migration",
  "tickets",
  "summary",
  "metrics",
  "plan",
  "report",
] as const;

export const FLOW_NAMES = [
  "feature-build",
  "code-review",
  "debug-loop",
  "release-notes",
  "incident-triage",
  "research",
  "docs-update",
  "security-audit",
  "data-migration",
  "bug-hunt",
  "spec-kit",
  "refactor",
  "onboarding",
  "weekly-report",
] as const;

export const INPUT_NAMES = [
  "topic",
  "feature",
  "repo",
  "branch",
  "ticket",
  "question",
  "since",
  "target",
  "audience",
  "scope",
  "path",
  "issue",
] as const;

export const FLAG_INPUTS = ["fast", "dry_run", "skip_review", "auto_approve", "verbose"] as const;

export const AGENTS = ["claude", "codex", "reviewer", "planner", "gemini"] as const;

export const MODELS = ["claude-sonnet-4", "claude-haiku", "gpt-4.1", "o3-mini"] as const;

export const PHRASES = [
  "Read the relevant files and summarise what they do",
  "Write a short plan that names every file to touch",
  "Review the patch for correctness, style and missing tests",
  "Collect sources that support or refute the hypothesis",
  "Extract every open question from the discussion",
  "Fix the failing tests without changing their intent",
  "Draft release notes grouped by kind of change",
  "Rank the findings by severity and likelihood",
  "Estimate the effort of each task in hours",
  "Check that the migration is reversible and idempotent",
  "Explain the root cause of the incident in plain words",
  "Propose the smallest change that makes the build green",
] as const;

export const COMMENTS = [
  "keep this short: the agent re-reads it on every retry",
  "the reviewer agent is slower but catches more",
  "TODO: tighten once the prompts are stable",
  "flaky upstream API, allow a retry",
  "see docs/workflows.md",
  "intentionally strict",
] as const;
