# scripts/record-v03-scenarios.py: records the version 0.3 runtime scenarios
# (test/conformance/recorded/scenarios/v03_*.json) by running them through the reference
# implementation, stratum-mcp 0.2.50 (smartmemory/stratum at ecc1aa5), in this process.
#
# Usage: python3 scripts/record-v03-scenarios.py [--repo GIT_DIR] [--commit ecc1aa5]
#
# The reference's `stratum-mcp/src` is exported from a git clone of smartmemory/stratum (default:
# the local mirror /work/.mirror/smartmemory+stratum/repo) into a temporary directory. server.py
# imports with only jsonschema and PyYAML once `mcp.server.fastmcp`, `claude_agent_sdk` and
# `stratum.judge.sandbox` are replaced by trivial stubs (written next to the export): a FastMCP
# whose `tool()` decorator returns the function unchanged, and empty classes and functions for the
# SDK and sandbox names (the version 0.3 research notes, in the history of docs/v03-reference-notes.md). HOME points
# at a scratch directory, so the reference's flow files land there. The working directory is the
# scenarios directory (test/conformance/recorded/README.md §2.1).
#
# Each scenario is: the spec, plan arguments and actions below, the reference's responses
# normalised as test/conformance/recorded/README.md §2.2 says (flow ids FLOW_n, durations and times 0, the working directory
# <CWD>, object keys sorted), and the divergences where our product deliberately differs
# (docs/reference/divergences.md ids). The consumer path only: the reference's server-side dispatch spawns
# real agents.
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
SCENARIOS_DIR = REPO_ROOT / "test" / "conformance" / "recorded" / "scenarios"

STUBS = {
    "mcp/__init__.py": "",
    "mcp/server/__init__.py": "",
    "mcp/server/fastmcp.py": """
        class Context:
            pass


        class FastMCP:
            def __init__(self, *args, **kwargs):
                pass

            def tool(self, *args, **kwargs):
                return lambda f: f

            def __getattr__(self, name):
                return lambda *args, **kwargs: (lambda f: f)
    """,
    "claude_agent_sdk/__init__.py": """
        class AssistantMessage:
            pass


        class ClaudeAgentOptions:
            pass


        class ResultMessage:
            pass


        async def query(*args, **kwargs):
            if False:
                yield None
    """,
    "claude_agent_sdk/types.py": """
        class TextBlock:
            pass


        class ToolUseBlock:
            pass
    """,
    "stratum/__init__.py": "",
    "stratum/judge/__init__.py": "",
    "stratum/judge/sandbox.py": """
        class JailDriver:
            pass


        class JailUnavailableError(Exception):
            pass


        def _terminate_child(*args, **kwargs):
            pass


        def select_jail_driver(*args, **kwargs):
            return None
    """,
}


def prepare_reference(repo: str, commit: str, scratch: Path) -> None:
    """Exports stratum-mcp/src at `commit`, writes the stubs, points HOME at scratch/home."""
    archive = subprocess.run(
        ["git", "-C", repo, "archive", commit, "stratum-mcp/src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive, check=True)
    stubs = scratch / "stubs"
    for rel, text in STUBS.items():
        path = stubs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    (scratch / "home").mkdir()
    os.environ["HOME"] = str(scratch / "home")
    sys.path[:0] = [str(stubs), str(scratch / "stratum-mcp" / "src")]


# ---------------------------------------------------------------------------
# Specs (the first five are the reference's own test fixtures, test_parallel_executor.py)
# ---------------------------------------------------------------------------

DECOMPOSE_PARALLEL = """\
version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
  Result:
    outcome: {type: string}
functions:
  prep:
    mode: infer
    intent: "Prepare input"
    input: {}
    output: Result
flows:
  main:
    input: {plan: {type: string}}
    steps:
      - id: prepare
        function: prep
        inputs: {plan: "$.input.plan"}
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break down into tasks"
        output_contract: TaskGraph
        ensure:
          - "no_file_conflicts(result.tasks)"
        retries: 3
        depends_on: [prepare]
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        max_concurrent: 2
        isolation: worktree
        require: all
        merge: sequential_apply
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
"""


def decompose_then_parallel(parallel_keys: str, after: str = "") -> str:
    """A decompose step `analyze`, then the parallel step `execute` with these keys."""
    return (
        'version: "0.3"\n'
        "contracts:\n"
        "  TaskGraph:\n"
        "    tasks: {type: array}\n"
        "flows:\n"
        "  main:\n"
        "    input: {}\n"
        "    steps:\n"
        "      - id: analyze\n"
        "        type: decompose\n"
        "        agent: claude\n"
        '        intent: "Break down"\n'
        "        output_contract: TaskGraph\n"
        "      - id: execute\n"
        "        type: parallel_dispatch\n"
        '        source: "$.steps.analyze.output.tasks"\n'
        + textwrap.indent(textwrap.dedent(parallel_keys), " " * 8)
        + textwrap.indent(textwrap.dedent(after), " " * 6)
    )


PARALLEL_COMMON = """\
intent_template: "Do: {task.desc}"
depends_on: [analyze]
"""

REQUIRE_ANY = decompose_then_parallel("agent: claude\nrequire: any\n" + PARALLEL_COMMON)
REQUIRE_N = decompose_then_parallel("agent: claude\nrequire: 2\n" + PARALLEL_COMMON)
REQUIRE_FLOAT = decompose_then_parallel("agent: claude\nrequire: 2.0\n" + PARALLEL_COMMON)
ISOLATION_NONE = decompose_then_parallel("agent: claude\nisolation: none\n" + PARALLEL_COMMON)

CERT_KEYS = """\
retries: 1
task_reasoning_template:
  require_citations: false
"""


def cert_spec(agent: str, require: str) -> str:
    return decompose_then_parallel(f"agent: {agent}\nrequire: {require}\n" + PARALLEL_COMMON + CERT_KEYS)


PAR_CERT = cert_spec('"claude:reviewer"', "all")
PAR_CERT_ANY = cert_spec('"claude:reviewer"', "any")
PAR_CERT_CODEX = cert_spec("codex", "all")

# An ensure on the aggregate (its `outcome`), then a step after the parallel one.
AGGREGATE_ENSURE = decompose_then_parallel(
    "agent: claude\nensure:\n  - \"result.outcome == 'complete'\"\n" + PARALLEL_COMMON,
    after="""\
- id: report
  intent: "Report"
  depends_on: [execute]
""",
)

# retries 1 and on_fail back to the decompose step.
ON_FAIL = decompose_then_parallel("agent: claude\nretries: 1\non_fail: analyze\n" + PARALLEL_COMMON)

# The decompose step guards its graph with no_file_conflicts.
NO_FILE_CONFLICTS = """\
version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
flows:
  main:
    input: {}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Break down"
        output_contract: TaskGraph
        ensure:
          - "no_file_conflicts(result.tasks)"
        retries: 4
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        intent_template: "Do: {task.desc}"
        depends_on: [analyze]
"""

# The task list is a flow input: no decompose step at all.
SOURCE_FROM_INPUT = """\
version: "0.3"
flows:
  main:
    input:
      tasks: {type: array}
    steps:
      - id: execute
        type: parallel_dispatch
        source: "$.input.tasks"
        agent: codex
        require: any
        merge: manual
        isolation: branch
        max_concurrent: 5
        intent_template: "Do {id}: {desc}"
        ensure:
          - "len(result.completed) >= 1"
"""

VALID_CERT = "## Premises\nfacts\n\n## Trace\nreasoning\n\n## Conclusion\nverdict\n"
BAD_CERT = "## Premises\njust premises, no trace or conclusion\n"


def task(tid: str, desc: str, file: str, depends_on: list[str] | None = None) -> dict:
    return {"id": tid, "desc": desc, "files_owned": [file], "depends_on": depends_on or []}


TWO_TASKS = {"tasks": [task("t1", "task 1", "a.py"), task("t2", "task 2", "b.py")]}
THREE_TASKS = {"tasks": [task("t1", "t1", "a.py"), task("t2", "t2", "b.py"), task("t3", "t3", "c.py")]}


def ok(tid: str) -> dict:
    return {"task_id": tid, "result": {"ok": True}, "status": "complete"}


def boom(tid: str) -> dict:
    return {"task_id": tid, "result": {"error": "boom"}, "status": "failed"}


def cert(tid: str, text: str, key: str = "artifact") -> dict:
    return {"task_id": tid, "result": {key: text}, "status": "complete"}


def step_done(step_id: str, result, **extra) -> dict:
    return {"op": "step_done", "step_id": step_id, "result": result, **extra}


def parallel_done(step_id: str, task_results: list, merge_status: str = "clean", **extra) -> dict:
    return {
        "op": "parallel_done",
        "step_id": step_id,
        "task_results": task_results,
        "merge_status": merge_status,
        **extra,
    }


def record(step_id: str, step_mode: str, attempts: int) -> dict:
    """A StepRecord of a decompose or parallel step (agent claude) as the trace shows it, normalised."""
    return {
        "agent": "claude",
        "attempts": attempts,
        "child_flow_id": None,
        "duration_ms": 0,
        "function_name": "",
        "round": 0,
        "round_start_step_id": None,
        "step_id": step_id,
        "step_mode": step_mode,
        "type": "step",
    }


AUDIT = {"op": "audit"}
RESUME = {"op": "resume"}

# ---------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------

SCENARIOS: list[dict] = [
    {
        "name": "v03_decompose_parallel_success",
        "description": "function step, decompose step (no_file_conflicts ensure passes on disjoint files), "
        "parallel_dispatch payload, stratum_parallel_done with every task complete and a clean merge: "
        "the aggregate is the completion output; the audit's trace has decompose and parallel_dispatch records",
        "spec": DECOMPOSE_PARALLEL,
        "inputs": {"plan": "build it"},
        "actions": [
            step_done("prepare", {"outcome": "ready"}),
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [ok("t1"), ok("t2")]),
            AUDIT,
        ],
    },
    {
        "name": "v03_require_all_failed_task",
        "description": "require all (default retries 2): one failed task gives ensure_failed with the require "
        "violation and the payload again (resume answers it too), a second report exhausts the step",
        "spec": DECOMPOSE_PARALLEL,
        "inputs": {"plan": "build it"},
        "actions": [
            step_done("prepare", {"outcome": "ready"}),
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [ok("t1"), boom("t2")]),
            RESUME,
            AUDIT,
            parallel_done("execute", [boom("t1"), {"task_id": "t2", "result": None}]),
        ],
    },
    {
        "name": "v03_merge_conflict_then_clean",
        "description": "merge_status conflict fails the step with the merge violation (require satisfied); "
        "a second report with a clean merge completes the flow",
        "spec": DECOMPOSE_PARALLEL,
        "inputs": {"plan": "build it"},
        "actions": [
            step_done("prepare", {"outcome": "ready"}),
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [ok("t1"), ok("t2")], "conflict"),
            parallel_done("execute", [ok("t1"), ok("t2")], "whatever"),
        ],
    },
    {
        "name": "v03_merge_conflict_exhausted",
        "description": "two reports with merge_status conflict exhaust the parallel step (retries default 2): "
        "retries_exhausted with the merge violation",
        "spec": DECOMPOSE_PARALLEL,
        "inputs": {"plan": "build it"},
        "actions": [
            step_done("prepare", {"outcome": "ready"}),
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [ok("t1"), ok("t2")], "conflict"),
            parallel_done("execute", [ok("t1"), boom("t2")], "conflict"),
        ],
    },
    {
        "name": "v03_require_any",
        "description": "require any: one complete and one failed task complete the step; the aggregate "
        "(tasks, merge_status, completed, failed, outcome) is the completion output",
        "spec": REQUIRE_ANY,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [ok("t1"), boom("t2")]),
        ],
    },
    {
        "name": "v03_require_any_none_complete",
        "description": "require any: no complete task (a missing status counts as failed) fails the step",
        "spec": REQUIRE_ANY,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [boom("t1"), {"task_id": "t2", "result": {"ok": True}}]),
        ],
    },
    {
        "name": "v03_require_n",
        "description": "require 2: one of three complete fails (require='2' not satisfied), "
        "then two of three complete",
        "spec": REQUIRE_N,
        "actions": [
            step_done("analyze", THREE_TASKS),
            parallel_done("execute", [ok("t1"), boom("t2"), boom("t3")]),
            parallel_done("execute", [ok("t1"), ok("t2"), boom("t3")]),
        ],
    },
    {
        "name": "v03_require_integral_float",
        "description": "require 2.0 (valid: an integral float): echoed in the payload; two of three complete "
        "satisfy it in our product, while the reference treats it as require all",
        "spec": REQUIRE_FLOAT,
        "actions": [
            step_done("analyze", THREE_TASKS),
            parallel_done("execute", [ok("t1"), ok("t2"), boom("t3")]),
        ],
        "divergences": [
            {
                "id": "DIV-PARALLEL-REQUIRE-FLOAT",
                "ops": [2],
                "note": "the reference treats require 2.0 as all (ensure_failed, require='2.0' not satisfied: "
                "2 completed, 1 failed); ours reads it as 2 and completes",
                "expect": {"2": {"status": "complete", "output": {"merge_status": "clean", "outcome": "complete"}}},
            }
        ],
    },
    {
        "name": "v03_isolation_none_payload",
        "description": "isolation none is echoed in the parallel_dispatch payload (not defaulted to worktree), "
        "from step_done and from resume",
        "spec": ISOLATION_NONE,
        "actions": [step_done("analyze", TWO_TASKS), RESUME],
    },
    {
        "name": "v03_aggregate_ensure",
        "description": "an ensure on the aggregate: a failed task fails the ensure and only the ensure's "
        "violation is reported; all complete passes it and the next step is dispatched",
        "spec": AGGREGATE_ENSURE,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [ok("t1"), boom("t2")]),
            parallel_done("execute", [ok("t1"), ok("t2")]),
        ],
    },
    {
        "name": "v03_on_fail_after_exhaustion",
        "description": "retries 1 and on_fail back to the decompose step: a failed task exhausts the step, "
        "the decompose payload comes back with routed_from and the require violation; a new graph "
        "dispatches the parallel step again, which then completes",
        "spec": ON_FAIL,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [ok("t1"), boom("t2")]),
            AUDIT,
            step_done("analyze", {"tasks": [task("t3", "task 3", "c.py")]}),
            parallel_done("execute", [ok("t3")]),
        ],
        "divergences": [
            {
                "id": "DIV-PARALLEL-AGGREGATE-STAGE",
                "ops": [3, 5],
                "note": "exhaustion through the require check routed to on_fail: the reference leaves no "
                "StepRecord for the exhausted attempt, ours records it like every other exhaustion, so the "
                "audit has one more trace entry (steps_completed 2, not 1) and the completion trace too",
                "expect": {
                    "3": {
                        "status": "in_progress",
                        "steps_completed": 2,
                        "trace": [record("analyze", "decompose", 1), record("execute", "parallel_dispatch", 1)],
                    },
                    "5": {
                        "status": "complete",
                        "trace": [
                            record("analyze", "decompose", 1),
                            record("execute", "parallel_dispatch", 1),
                            record("analyze", "decompose", 1),
                            record("execute", "parallel_dispatch", 2),
                        ],
                    },
                },
            }
        ],
    },
    {
        "name": "v03_step_done_on_parallel_step",
        "description": "stratum_step_done on a parallel step is accepted: the result is processed as the "
        "aggregate (no require/merge evaluation) and the flow completes",
        "spec": DECOMPOSE_PARALLEL,
        "inputs": {"plan": "build it"},
        "actions": [
            step_done("prepare", {"outcome": "ready"}),
            step_done("analyze", TWO_TASKS),
            step_done("execute", {"outcome": "complete"}),
        ],
    },
    {
        "name": "v03_parallel_done_errors",
        "description": "stratum_parallel_done errors: wrong_step_type on a function and on a decompose step "
        "(step_done still works there), step_mismatch, flow_not_found, and flow_complete once done",
        "spec": DECOMPOSE_PARALLEL,
        "inputs": {"plan": "build it"},
        "actions": [
            parallel_done("prepare", [ok("t1")]),
            parallel_done("execute", [ok("t1")]),
            parallel_done("execute", [ok("t1")], flow="no-such-flow"),
            step_done("prepare", {"outcome": "ready"}),
            parallel_done("analyze", [ok("t1")]),
            step_done("analyze", TWO_TASKS),
            parallel_done("analyze", [ok("t1")]),
            parallel_done("execute", []),
            parallel_done("execute", [ok("t1")]),
        ],
    },
    {
        "name": "v03_decompose_no_file_conflicts",
        "description": "no_file_conflicts in a decompose ensure: independent tasks sharing a file fail with "
        "the builtin's message (retries_remaining counts down from 4); a dependency between them, or only "
        "read overlap, passes and dispatches the parallel step",
        "spec": NO_FILE_CONFLICTS,
        "actions": [
            step_done(
                "analyze",
                {"tasks": [task("t1", "one", "shared.py"), task("t2", "two", "shared.py")]},
            ),
            step_done(
                "analyze",
                {
                    "tasks": [
                        task("t1", "one", "a.py"),
                        task("t2", "two", "b.py"),
                        {"id": "t3", "desc": "three", "files_owned": ["b.py", "a.py"], "depends_on": ["t1"]},
                    ]
                },
            ),
            step_done(
                "analyze",
                {
                    "tasks": [
                        task("t1", "one", "shared.py"),
                        task("t2", "two", "x.py", ["t1"]),
                        {"id": "t3", "desc": "three", "files_owned": ["shared.py"], "depends_on": ["t2"],
                         "files_read": ["x.py"]},
                    ]
                },
            ),
        ],
    },
    {
        "name": "v03_no_file_conflicts_unnamed_tasks",
        "description": "no_file_conflicts names a task without id by its position: the conflict between the "
        "first and the third task names 'task-0' and 'task-2' in our product ('task-1' in the reference)",
        "spec": NO_FILE_CONFLICTS,
        "actions": [
            step_done(
                "analyze",
                {"tasks": [{"files_owned": ["a.py"]}, {"files_owned": ["b.py"]}, {"files_owned": ["a.py"]}]},
            ),
        ],
        "divergences": [
            {
                "id": "DIV-NO-FILE-CONFLICTS",
                "ops": [1],
                "note": "the reference names the second task of the pair task-<i+1> (task-1); ours task-<j>",
                "expect": {
                    "1": {
                        "status": "ensure_failed",
                        "violations": [
                            "Ensure expression 'no_file_conflicts(result.tasks)' raised: File ownership "
                            "conflict between independent tasks 'task-0' and 'task-2': ['a.py']"
                        ],
                    }
                },
            }
        ],
    },
    {
        "name": "v03_source_from_input",
        "description": "source is a flow input: the plan answers the parallel_dispatch payload with the input "
        "list and every key as written (agent codex, require any, merge manual, isolation branch, "
        "max_concurrent 5); an ensure on the aggregate; the completion output is the aggregate",
        "spec": SOURCE_FROM_INPUT,
        "inputs": {"tasks": [{"id": "a", "desc": "first"}, {"id": "b", "desc": "second", "extra": [1, 2.5]}]},
        "actions": [
            parallel_done("execute", [boom("a"), boom("b")]),
            parallel_done("execute", [boom("a"), {"task_id": "b", "result": "done", "status": "complete"}]),
        ],
    },
    {
        "name": "v03_cert_pass",
        "description": "task_reasoning_template on a claude:reviewer parallel step: every task's artifact "
        "has the three default sections, the flow completes",
        "spec": PAR_CERT,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [cert("t1", VALID_CERT), cert("t2", VALID_CERT)]),
        ],
    },
    {
        "name": "v03_cert_fail_require_all",
        "description": "t2's artifact lacks Trace and Conclusion: t2 counts as failed, require all fails, "
        "retries 1 exhausts at once; the violations name the require check and t2's certificate",
        "spec": PAR_CERT,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [cert("t1", VALID_CERT), cert("t2", BAD_CERT)]),
        ],
    },
    {
        "name": "v03_cert_fail_require_any",
        "description": "require any with one certificate failure completes; the stored aggregate has t2 "
        "failed with its error and cert_violations",
        "spec": PAR_CERT_ANY,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [cert("t1", VALID_CERT), cert("t2", BAD_CERT)]),
        ],
    },
    {
        "name": "v03_cert_merge_conflict",
        "description": "a merge conflict and a certificate failure: the merge violation, then t2's "
        "certificate violation",
        "spec": PAR_CERT,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [cert("t1", VALID_CERT), cert("t2", BAD_CERT)], "conflict"),
        ],
    },
    {
        "name": "v03_cert_reasoning_fallback",
        "description": "certificates found under `reasoning` instead of `artifact` pass",
        "spec": PAR_CERT,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [cert("t1", VALID_CERT, "reasoning"), cert("t2", VALID_CERT, "reasoning")]),
        ],
    },
    {
        "name": "v03_cert_skipped_for_codex",
        "description": "agent codex: no certificate check on the consumer path, bad certificates complete",
        "spec": PAR_CERT_CODEX,
        "actions": [
            step_done("analyze", TWO_TASKS),
            parallel_done("execute", [cert("t1", BAD_CERT), cert("t2", BAD_CERT)]),
        ],
    },
]

# ---------------------------------------------------------------------------
# Running and normalising
# ---------------------------------------------------------------------------

ZEROED = {"duration_ms", "total_duration_ms", "remaining_seconds", "timestamp", "started_at"}


class Normaliser:
    """test/conformance/recorded/README.md §2.2: flow ids in order of first appearance, times zeroed, <CWD>, keys sorted."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.flow_names: dict[str, str] = {}

    def learn(self, flow_id: str) -> None:
        if flow_id not in self.flow_names:
            self.flow_names[flow_id] = f"FLOW_{len(self.flow_names) + 1}"

    def __call__(self, value):
        if isinstance(value, dict):
            return {
                k: (0 if k in ZEROED and isinstance(v, (int, float)) and not isinstance(v, bool) else self(v))
                for k, v in sorted(value.items())
            }
        if isinstance(value, list):
            return [self(v) for v in value]
        if isinstance(value, str):
            for real, name in self.flow_names.items():
                value = value.replace(real, name)
            return value.replace(self.cwd, "<CWD>")
        return value


def collect_flow_ids(value, seen: list[str]) -> None:
    """Flow ids (keys *flow_id*) in document order, to name them in order of first appearance."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k.endswith("flow_id") and isinstance(v, str) and v not in seen:
                seen.append(v)
            collect_flow_ids(v, seen)
    elif isinstance(value, list):
        for v in value:
            collect_flow_ids(v, seen)


async def run_scenario(server, executor, scenario: dict, cwd: str) -> dict:
    executor._flows.clear()
    spec, inputs = scenario["spec"], scenario.get("inputs", {})
    raw = [await server.stratum_plan(spec=spec, flow="main", inputs=json.loads(json.dumps(inputs)), ctx=None)]
    root = raw[0].get("flow_id") if isinstance(raw[0], dict) else None
    for action in scenario["actions"]:
        flow = action.get("flow", "root")
        flow_id = root if flow == "root" else flow
        op = action["op"]
        # Arguments are copies, as over MCP (the reference mutates task_results in place).
        copy = json.loads(json.dumps(action))
        if op == "step_done":
            response = await server.stratum_step_done(flow_id, action["step_id"], copy["result"], ctx=None)
        elif op == "parallel_done":
            response = await server.stratum_parallel_done(
                flow_id=flow_id, step_id=action["step_id"], task_results=copy["task_results"],
                merge_status=action["merge_status"], ctx=None,
            )
        elif op == "audit":
            response = await server.stratum_audit(flow_id, ctx=None)
        elif op == "resume":
            response = await server.stratum_resume(flow_id, ctx=None)
        else:
            raise ValueError(f"{scenario['name']}: op {op} is not recorded by this script")
        raw.append(response)
    normalise = Normaliser(cwd)
    seen: list[str] = []
    collect_flow_ids(raw, seen)
    for fid in seen:
        if fid != "no-such-flow":
            normalise.learn(fid)
    ops = ["plan"] + [a["op"] for a in scenario["actions"]]
    out = {
        "name": scenario["name"],
        "description": scenario["description"],
        "spec": spec,
        "flow": "main",
        "inputs": inputs,
        "actions": scenario["actions"],
        "reference": [{"op": op, "response": normalise(r)} for op, r in zip(ops, raw)],
    }
    if scenario.get("divergences"):
        out["expect_divergences"] = scenario["divergences"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", default="/work/.mirror/smartmemory+stratum/repo")
    parser.add_argument("--commit", default="ecc1aa5")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="stratum-ref-v03-") as scratch:
        prepare_reference(args.repo, args.commit, Path(scratch))
        cwd = os.path.realpath(SCENARIOS_DIR)
        os.chdir(cwd)
        import stratum_mcp.executor as executor  # noqa: E402 (after the path set-up)
        import stratum_mcp.server as server  # noqa: E402

        for scenario in SCENARIOS:
            recorded = asyncio.run(run_scenario(server, executor, scenario, cwd))
            path = SCENARIOS_DIR / f"{scenario['name']}.json"
            path.write_text(json.dumps(recorded, indent=2, ensure_ascii=False) + "\n")
            statuses = [
                (r["response"] or {}).get("status") or (r["response"] or {}).get("error_type")
                for r in recorded["reference"]
            ]
            print(f"{path.name}: {statuses}")


if __name__ == "__main__":
    main()
