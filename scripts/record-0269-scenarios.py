# scripts/record-0269-scenarios.py: records the `type: pipeline` scenarios of stratum-mcp 0.2.69
# (test/conformance/recorded/scenarios/v0269_pipeline_*.json) by running the reference
# implementation (smartmemory/stratum at 63fc11d) in this process, through the consumer path:
# stratum_plan, stratum_step_done, stratum_parallel_done, stratum_resume, stratum_audit.
#
# Usage: python3 scripts/record-0269-scenarios.py [--repo GIT_DIR] [--commit 63fc11d]
#
# It reuses scripts/record-v03-scenarios.py (export of stratum-mcp/src, stubs, normalisation,
# test/conformance/recorded/README.md §2.1-2.2). At 63fc11d the reference imports more names from
# the agent SDK and the judge sandbox than 0.2.50 did, so those stub modules here also answer any
# other name (a class for a capitalised name, a no-op function otherwise).
#
# A pipeline reaches the consumer as a parallel_dispatch payload over the desugared item x stage
# task graph; the consumer reports every stage task in one stratum_parallel_done. `when` and
# `exit_when` are evaluated by the reference's server-side executor only: on the consumer path the
# payload carries them (`_when`, `_exit_when`) and the consumer reports a routed-away task as
# `skipped`. A pipeline with fanout/join is refused on the consumer path
# (`fanout_server_dispatched_only`). Server-side dispatch spawns real agents and is not recorded.
from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import tempfile
import textwrap
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
_loader = importlib.util.spec_from_file_location("record_v03", HERE / "record-v03-scenarios.py")
assert _loader is not None and _loader.loader is not None
v03 = importlib.util.module_from_spec(_loader)
_loader.loader.exec_module(v03)

ANY_NAME = """
def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    if name[:1].islower():
        return lambda *args, **kwargs: None
    return type(name, (Exception,), {})
"""
for _module in ("claude_agent_sdk/__init__.py", "claude_agent_sdk/types.py", "stratum/judge/sandbox.py"):
    v03.STUBS[_module] = v03.STUBS[_module] + textwrap.indent(ANY_NAME, " " * 8)

SCENARIOS_DIR = v03.SCENARIOS_DIR


def pipeline_spec(stages: str, step_keys: str = "require: all\n", after: str = "") -> str:
    """A function step `seed` giving `files`, then the pipeline step `pipe` over them."""
    return (
        'version: "0.3"\n'
        "contracts:\n"
        "  Files:\n"
        "    files: {type: array}\n"
        "functions:\n"
        "  seed:\n"
        "    mode: infer\n"
        '    intent: "List the files"\n'
        "    input: {}\n"
        "    output: Files\n"
        "flows:\n"
        "  main:\n"
        "    input: {}\n"
        "    steps:\n"
        "      - id: seed\n"
        "        function: seed\n"
        "        inputs: {}\n"
        "      - id: pipe\n"
        "        type: pipeline\n"
        '        source: "$.steps.seed.output.files"\n'
        "        depends_on: [seed]\n"
        + textwrap.indent(textwrap.dedent(step_keys), " " * 8)
        + "        stages:\n"
        + textwrap.indent(textwrap.dedent(stages), " " * 10)
        + textwrap.indent(textwrap.dedent(after), " " * 6)
    )


THREE_STAGES = pipeline_spec(
    """\
    - {agent: claude, intent_template: "extract {item}"}
    - {agent: codex, intent_template: "transform {prev}", task_timeout: 120}
    - intent_template: "review {prev_raw} of {item}"
      task_reasoning_template: {require_citations: false}
    """,
    after="""\
- id: report
  intent: "Report on the pipeline"
  inputs: {items: "$.steps.pipe.output.items"}
  depends_on: [pipe]
""",
)

WHEN_STAGES = pipeline_spec(
    """\
    - {intent_template: "triage {item}"}
    - intent_template: "deep review {prev}"
      when: "prev_raw['risk'] == 'high'"
    - {intent_template: "summarise {prev}"}
    """
)

EXIT_WHEN_STAGES = pipeline_spec(
    """\
    - intent_template: "lint {item}"
      exit_when: "result_raw['clean']"
    - {intent_template: "fix {prev}"}
    - {intent_template: "re-lint {prev}"}
    """
)

FANOUT_STAGES = pipeline_spec(
    """\
    - intent_template: "split {item} into sections"
      fanout: {max: 2, require: any}
    - {intent_template: "summarise section {item} of {source}"}
    - {intent_template: "merge {prevs}", join: true}
    """
)

REQUIRE_ANY = pipeline_spec(
    """\
    - {intent_template: "extract {item}"}
    - {intent_template: "check {prev}"}
    """,
    step_keys="require: any\nretries: 1\n",
)

REQUIRE_ALL_RETRY = pipeline_spec(
    """\
    - {intent_template: "extract {item}"}
    - {intent_template: "check {prev}"}
    """,
    step_keys="require: all\nretries: 2\nensure:\n  - \"len(result.items) == 2\"\n",
)

REQUIRE_ALL_PLAIN = pipeline_spec(
    """\
    - {intent_template: "extract {item}"}
    """
)

# Specs the reference refuses at plan time (stratum_plan's error responses).
INVALID = {
    "stage0_when_prev": pipeline_spec('- {intent_template: "a {item}", when: "prev is not None"}\n'),
    "when_unknown_name": pipeline_spec(
        '- {intent_template: "a {item}"}\n- {intent_template: "b {prev}", when: "result[\'x\']"}\n'
    ),
    "exit_when_prev": pipeline_spec('- {intent_template: "a {item}", exit_when: "prev == 1"}\n'),
    "step_intent_template": pipeline_spec(
        '- {intent_template: "a {item}"}\n', step_keys='require: all\nintent_template: "x"\n'
    ),
    "no_source": pipeline_spec('- {intent_template: "a {item}"}\n').replace(
        '        source: "$.steps.seed.output.files"\n', ""
    ),
    "no_stages": pipeline_spec("").replace("        stages:\n", ""),
    "empty_stages": pipeline_spec("").replace("        stages:\n", "        stages: []\n"),
    "stage_unknown_key": pipeline_spec('- {intent_template: "a {item}", timeout: 5}\n'),
    "stage_no_intent_template": pipeline_spec("- {agent: claude}\n"),
    "fanout_without_join": pipeline_spec(
        '- {intent_template: "a {item}", fanout: {max: 2}}\n- {intent_template: "b {item}"}\n'
    ),
    "join_before_fanout": pipeline_spec(
        '- {intent_template: "a", join: true}\n- {intent_template: "b"}\n'
        '- {intent_template: "c", fanout: {max: 2}}\n'
    ),
    "no_lane_stage": pipeline_spec(
        '- {intent_template: "a", fanout: {max: 2}}\n- {intent_template: "b {prevs}", join: true}\n'
    ),
    "when_in_region": pipeline_spec(
        '- {intent_template: "a", fanout: {max: 2}}\n- {intent_template: "b", when: "item"}\n'
        '- {intent_template: "c {prevs}", join: true}\n'
    ),
    "exit_when_before_fanout": pipeline_spec(
        '- {intent_template: "p", exit_when: "result"}\n- {intent_template: "a", fanout: {max: 2}}\n'
        '- {intent_template: "b"}\n- {intent_template: "c {prevs}", join: true}\n'
    ),
    "fanout_max_zero": pipeline_spec(
        '- {intent_template: "a", fanout: {max: 0}}\n- {intent_template: "b"}\n'
        '- {intent_template: "c {prevs}", join: true}\n'
    ),
    "fanout_require_zero": pipeline_spec(
        '- {intent_template: "a", fanout: {max: 2, require: 0}}\n- {intent_template: "b"}\n'
        '- {intent_template: "c {prevs}", join: true}\n'
    ),
    "stages_on_parallel_dispatch": pipeline_spec('- {intent_template: "a {item}"}\n').replace(
        "type: pipeline", "type: parallel_dispatch\n        intent_template: \"x\""
    ),
    "stages_on_inline_step": pipeline_spec('- {intent_template: "a {item}"}\n').replace(
        "type: pipeline\n        source: \"$.steps.seed.output.files\"\n",
        "intent: \"do it\"\n",
    ).replace("        require: all\n", ""),
    "task_timeout_zero": pipeline_spec('- {intent_template: "a {item}", task_timeout: 0}\n'),
    "reasoning_template": pipeline_spec(
        '- {intent_template: "a {item}"}\n', step_keys="require: all\nreasoning_template: {}\n"
    ),
}

VALID_CERT = v03.VALID_CERT
SEED = {"files": ["a.py", "b.py"]}


def tid(item: int, stage: int, lane: int | None = None) -> str:
    return f"pipe::item{item}::stage{stage}" + (f"::lane{lane}" if lane is not None else "")


def res(task_id: str, result, status: str = "complete") -> dict:
    return {"task_id": task_id, "result": result, "status": status}


def plan(spec: str) -> dict:
    return {"op": "plan", "spec": spec}


SCENARIOS: list[dict] = [
    {
        "name": "v0269_pipeline_three_stages",
        "description": "three stages over two items (per-stage agent, task_timeout, a per-stage "
        "task_reasoning_template): the pipeline's parallel_dispatch payload lists the 6 desugared tasks "
        "(ids pipe::item<i>::stage<j>, depends_on the item's previous stage, the stage's keys underscored); "
        "every task complete gives the aggregate with items[] (item, status, result of the last stage, "
        "stages[]) as the next step's input; resume repeats the payload; the audit's trace",
        "spec": THREE_STAGES,
        "actions": [
            v03.step_done("seed", SEED),
            v03.RESUME,
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), {"text": "A"}),
                    res(tid(0, 1), {"text": "A2"}),
                    res(tid(0, 2), {"artifact": VALID_CERT}),
                    res(tid(1, 0), {"text": "B"}),
                    res(tid(1, 1), {"text": "B2"}),
                    res(tid(1, 2), {"artifact": VALID_CERT}),
                ],
            ),
            v03.step_done("report", {"ok": True}),
            v03.AUDIT,
        ],
    },
    {
        "name": "v0269_pipeline_stage_cert_fails",
        "description": "the third stage's own task_reasoning_template applies whatever the agent: item 1's "
        "artifact lacks Trace and Conclusion, so its task fails, the item fails and require all fails: "
        "ensure_failed with retries_remaining 1 (retries default 2, as on parallel_dispatch); the violations are "
        "the require check counted in TASKS (5 completed, 1 failed), then the task's certificate",
        "spec": THREE_STAGES,
        "actions": [
            v03.step_done("seed", SEED),
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), {"text": "A"}),
                    res(tid(0, 1), {"text": "A2"}),
                    res(tid(0, 2), {"artifact": VALID_CERT}),
                    res(tid(1, 0), {"text": "B"}),
                    res(tid(1, 1), {"text": "B2"}),
                    res(tid(1, 2), {"artifact": v03.BAD_CERT}),
                ],
            ),
        ],
    },
    {
        "name": "v0269_pipeline_when_skips_stage",
        "description": "stage 1 has `when` (carried in the payload as _when); the consumer reports item 0's "
        "stage 1 as skipped: a skipped stage is settled, not failed, so both items complete; a skipped "
        "stage's entry in stages[] is its reported result",
        "spec": WHEN_STAGES,
        "actions": [
            v03.step_done("seed", SEED),
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), {"risk": "low"}),
                    res(tid(0, 1), None, "skipped"),
                    res(tid(0, 2), {"summary": "a fine"}),
                    res(tid(1, 0), {"risk": "high"}),
                    res(tid(1, 1), {"review": "b risky"}),
                    res(tid(1, 2), {"summary": "b fixed"}),
                ],
            ),
        ],
    },
    {
        "name": "v0269_pipeline_exit_when_ends_item",
        "description": "stage 0 has `exit_when`; item 0 exits early (its stages 1 and 2 reported skipped) "
        "and completes with the last stage's (skipped) result, item 1 runs all three stages",
        "spec": EXIT_WHEN_STAGES,
        "actions": [
            v03.step_done("seed", SEED),
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), {"clean": True}),
                    res(tid(0, 1), None, "skipped"),
                    res(tid(0, 2), None, "skipped"),
                    res(tid(1, 0), {"clean": False}),
                    res(tid(1, 1), {"fixed": True}),
                    res(tid(1, 2), {"clean": True}),
                ],
            ),
        ],
    },
    {
        "name": "v0269_pipeline_fanout_join",
        "description": "fanout {max 2, require any} and a join stage: the payload pre-materialises 2 lanes per "
        "lane stage (pipe::item<i>::stage1::lane<k>, roles split/lane/join, _fanout_max, _fanout_require, "
        "the join depending on every lane); stratum_parallel_done is refused with "
        "fanout_server_dispatched_only and the flow stays at the step",
        "spec": FANOUT_STAGES,
        "actions": [
            v03.step_done("seed", {"files": ["doc.md"]}),
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), ["s1", "s2"]),
                    res(tid(0, 1, 0), "sum1"),
                    res(tid(0, 1, 1), "sum2"),
                    res(tid(0, 2), "merged"),
                ],
            ),
            v03.RESUME,
        ],
    },
    {
        "name": "v0269_pipeline_require_any",
        "description": "require any, retries 1: item 0 fails at stage 1, item 1 completes: the step completes "
        "with item 0 failed (result null, stages[] holding each reported result) and item 1's result its last "
        "stage's result",
        "spec": REQUIRE_ANY,
        "actions": [
            v03.step_done("seed", SEED),
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), {"v": 1}),
                    res(tid(0, 1), {"error": "boom"}, "failed"),
                    res(tid(1, 0), {"v": 2}),
                    res(tid(1, 1), {"v": 3}),
                ],
            ),
        ],
    },
    {
        "name": "v0269_pipeline_require_all_retries",
        "description": "require all, retries 2, an ensure on result.items: a missing task leaves its item "
        "incomplete and fails require (ensure_failed, retries_remaining 1, the payload again; the violation counts "
        "tasks: 3 completed, 0 failed); a failed task then exhausts the step (retries_exhausted); a failed "
        "require is reported even though the ensure would pass",
        "spec": REQUIRE_ALL_RETRY,
        "actions": [
            v03.step_done("seed", SEED),
            v03.parallel_done(
                "pipe",
                [res(tid(0, 0), {"v": 1}), res(tid(0, 1), {"v": 2}), res(tid(1, 0), {"v": 3})],
            ),
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), {"v": 1}),
                    res(tid(0, 1), {"v": 2}),
                    res(tid(1, 0), {"v": 3}),
                    res(tid(1, 1), None, "failed"),
                ],
            ),
        ],
    },
    {
        "name": "v0269_pipeline_all_skipped_and_odd_status",
        "description": "require any: item 0 with every stage reported skipped counts as complete (result null); "
        "item 1 with a stage status 'done' (neither complete, skipped, failed nor cancelled) is incomplete, not "
        "failed; a result for a task id outside the graph is kept in tasks[] but belongs to no item",
        "spec": REQUIRE_ANY,
        "actions": [
            v03.step_done("seed", SEED),
            v03.parallel_done(
                "pipe",
                [
                    res(tid(0, 0), None, "skipped"),
                    res(tid(0, 1), None, "skipped"),
                    res(tid(1, 0), {"v": 1}, "done"),
                    res(tid(1, 1), {"v": 2}),
                    res("pipe::item9::stage0", {"v": 9}),
                ],
            ),
        ],
    },
    {
        "name": "v0269_pipeline_step_done_on_pipeline",
        "description": "stratum_step_done on a pipeline step: accepted as the aggregate without require "
        "evaluation, as on a parallel_dispatch step",
        "spec": REQUIRE_ANY,
        "actions": [
            v03.step_done("seed", SEED),
            v03.step_done("pipe", {"outcome": "complete", "items": []}),
        ],
    },
    {
        "name": "v0269_pipeline_empty_source",
        "description": "an empty source list: the payload has no tasks (a pipeline of zero items); an empty "
        "report fails require all, which needs at least one item",
        "spec": REQUIRE_ALL_PLAIN,
        "actions": [
            v03.step_done("seed", {"files": []}),
            v03.parallel_done("pipe", []),
        ],
    },
    {
        "name": "v0269_pipeline_invalid_specs",
        "description": "specs the reference refuses at stratum_plan, one plan each: "
        + ", ".join(INVALID),
        "spec": INVALID["stage0_when_prev"],
        "actions": [plan(spec) for spec in list(INVALID.values())[1:]],
        "labels": list(INVALID),
    },
]


# `when` / `exit_when` evaluated as the server-side executor evaluates them (parallel_exec.py
# _route_skip and _check_exit_when at 63fc11d): `prev` / `result` are the output as text (a string as
# is, anything else JSON-encoded), `prev_raw` / `result_raw` the output itself, values bound raw (no
# namespace wrapping). Each case: position, stage index, expression, item, output; the recorded
# outcome is true / false, or the compile or run-time error (a `when` that raises runs the stage, an
# `exit_when` that raises does not exit).
PREDICATE_CASES: list[tuple[str, int, str, object, object]] = [
    ("when", 0, "item['lang'] == 'py'", {"lang": "py"}, None),
    ("when", 0, "item.lang == 'py'", {"lang": "py"}, None),
    ("when", 0, "len(item) > 3", "a.py", None),
    ("when", 0, "prev is None", "a.py", None),
    ("when", 1, "prev_raw['risk'] == 'high'", "a.py", {"risk": "high"}),
    ("when", 1, "prev['risk'] == 'high'", "a.py", {"risk": "high"}),
    ("when", 1, "'high' in prev", "a.py", {"risk": "high"}),
    ("when", 1, "prev == 'ok'", "a.py", "ok"),
    ("when", 1, "prev_raw", "a.py", []),
    ("when", 1, "prev_raw", "a.py", None),
    ("when", 1, "prev == 'null'", "a.py", None),
    ("when", 1, "result['x']", "a.py", {"x": 1}),
    ("when", 1, "any(x > 2 for x in prev_raw)", "a.py", [1, 3]),
    ("when", 1, "$.input.flag", "a.py", 1),
    ("when", 1, "prev_raw.__class__", "a.py", 1),
    ("exit_when", 0, "result_raw['clean']", "a.py", {"clean": True}),
    ("exit_when", 0, "result['clean']", "a.py", {"clean": True}),
    ("exit_when", 0, "result == 'done'", "a.py", "done"),
    ("exit_when", 2, "result_raw['score'] >= 0.9", "a.py", {"score": 0.95}),
    ("exit_when", 1, "prev_raw", "a.py", 1),
    ("exit_when", 1, "result_raw['missing']", "a.py", {}),
]


def record_predicates(executor) -> list[dict]:
    out = []
    for position, stage, expr, item, output in PREDICATE_CASES:
        as_text = output if isinstance(output, str) else json.dumps(output, default=str, ensure_ascii=False)
        if position == "when":
            allowed = {"item"} if stage == 0 else {"item", "prev", "prev_raw"}
            bindings = {"item": item} if stage == 0 else {"item": item, "prev": as_text, "prev_raw": output}
        else:
            allowed = {"item", "result", "result_raw"}
            bindings = {"item": item, "result": as_text, "result_raw": output}
        case = {"position": position, "stage": stage, "expr": expr, "item": item, "output": output}
        try:
            evaluator = executor.compile_predicate(expr, allowed)
        except executor.EnsureCompileError as exc:
            out.append({**case, "outcome": "compile_error", "message": str(exc)})
            continue
        try:
            out.append({**case, "outcome": evaluator(**bindings)})
        except executor.EnsureCompileError as exc:
            out.append({**case, "outcome": "raises", "message": str(exc)})
    return out


# Server-side runs (stratum_parallel_start's executor, parallel_exec.ParallelExecutor at 63fc11d) with
# a scripted agent instead of real ones: each agent answer is chosen by the first rule whose prefix
# starts the rendered prompt ({"result": value} or {"raise": message}; no rule: {"ok": true}). What is
# recorded: every task's terminal state, result and error, and the rendered prompts (sorted: tasks
# run concurrently). These show rendering ({prev}, {prev_raw}, {source}, {prevs}), skipping with
# passthrough, early exit, lanes and the join, which the consumer path cannot show.
SERVER_RUNS: list[dict] = [
    {
        "name": "three_stages_threading",
        "stages": """\
            - {intent_template: "extract {item} ({lang})"}
            - {intent_template: "transform {prev}"}
            - {intent_template: "review {prev_raw} / {prev}"}
            """,
        "source": [{"path": "a.py", "lang": "py"}, "b.md"],
        "rules": [["extract", {"result": {"n": 1}}], ["transform", {"result": "T"}]],
    },
    {
        "name": "when_skip_passthrough",
        "stages": """\
            - {intent_template: "triage {item}"}
            - {intent_template: "deep {prev}", when: "prev_raw['risk'] == 'high'"}
            - {intent_template: "summary {prev}"}
            """,
        "source": ["low", "high"],
        "rules": [["triage low", {"result": {"risk": "low"}}], ["triage high", {"result": {"risk": "high"}}],
                  ["deep", {"result": "DEEP"}]],
    },
    {
        "name": "exit_when_early",
        "stages": """\
            - {intent_template: "lint {item}", exit_when: "result_raw['clean']"}
            - {intent_template: "fix {prev}"}
            """,
        "source": ["clean", "dirty"],
        "rules": [["lint clean", {"result": {"clean": True}}], ["lint dirty", {"result": {"clean": False}}]],
    },
    {
        "name": "predicates_that_raise",
        "stages": """\
            - {intent_template: "one {item}", exit_when: "result_raw['nope']"}
            - {intent_template: "two {prev}", when: "prev['x'] == 1"}
            """,
        "source": ["a"],
        "rules": [["one", {"result": {"x": 1}}]],
    },
    {
        "name": "stage_failure_cancels_rest_of_item",
        "require": "any",
        "stages": """\
            - {intent_template: "one {item}"}
            - {intent_template: "two {prev}"}
            """,
        "source": ["bad", "good"],
        "rules": [["one bad", {"raise": "boom"}]],
    },
    {
        "name": "fanout_join",
        "stages": """\
            - {intent_template: "split {item}", fanout: {max: 3, require: all}}
            - {intent_template: "map {item} of {source}"}
            - {intent_template: "join {prevs}", join: true}
            - {intent_template: "post {prev}"}
            """,
        "source": ["doc"],
        "rules": [["split", {"result": ["s1", "s2"]}], ["map s1", {"result": "M1"}], ["map s2", {"result": {"m": 2}}],
                  ["join", {"result": "J"}]],
    },
    {
        "name": "fanout_lane_fails_require_any",
        "stages": """\
            - {intent_template: "split {item}", fanout: {max: 2, require: any}}
            - {intent_template: "map {item}"}
            - {intent_template: "join {prevs}", join: true}
            """,
        "source": ["doc"],
        "rules": [["split", {"result": '["a", "b"]'}], ["map a", {"raise": "lane boom"}], ["map b", {"result": "B"}]],
    },
    {
        "name": "fanout_lane_fails_require_all",
        "stages": """\
            - {intent_template: "split {item}", fanout: {max: 2}}
            - {intent_template: "map {item}"}
            - {intent_template: "join {prevs}", join: true}
            """,
        "source": ["doc"],
        "rules": [["split", {"result": ["a", "b"]}], ["map a", {"raise": "lane boom"}]],
    },
    {
        "name": "fanout_list_too_long_or_not_a_list",
        "require": "any",
        "stages": """\
            - {intent_template: "split {item}", fanout: {max: 2}}
            - {intent_template: "map {item}"}
            - {intent_template: "join {prevs}", join: true}
            """,
        "source": ["long", "text", "empty"],
        "rules": [["split long", {"result": [1, 2, 3]}], ["split text", {"result": "not json"}],
                  ["split empty", {"result": []}]],
    },
]


async def record_server_run(executor, run: dict) -> dict:
    import stratum_mcp.parallel_exec as parallel_exec
    from stratum_mcp.spec import parse_and_validate

    spec_text = pipeline_spec(run["stages"], step_keys=f"require: {run.get('require', 'all')}\n")
    step = {s.id: s for s in parse_and_validate(spec_text).flows["main"].steps}["pipe"]
    tasks = executor.expand_pipeline_tasks(step, json.loads(json.dumps(run["source"])))
    prompts: list[str] = []

    class ScriptedAgent:
        async def run(self, prompt, **kwargs):
            prompts.append(prompt)
            answer = next((a for prefix, a in run["rules"] if prompt.startswith(prefix)), {"result": {"ok": True}})
            if "raise" in answer:
                raise RuntimeError(answer["raise"])
            yield {"type": "result", "output": json.loads(json.dumps(answer["result"]))}

        def interrupt(self):
            pass

    parallel_exec.make_agent_connector = lambda *args, **kwargs: ScriptedAgent()
    state = types.SimpleNamespace(
        flow_id="FLOW_1", cwd="", parallel_tasks={}, terminal_status=None, budget=None, budget_state=None
    )
    ex = parallel_exec.ParallelExecutor(
        state=state, step_id="pipe", tasks=tasks, max_concurrent=8, isolation="none", task_timeout=30,
        agent=None, intent_template="", task_reasoning_template=step.task_reasoning_template,
        require=step.require, persist_callable=lambda s: None, is_pipeline=True,
    )
    await asyncio.wait_for(ex.run(), timeout=20)
    return {
        "name": run["name"],
        "spec": spec_text,
        "source": run["source"],
        "agent_rules": run["rules"],
        "tasks": {
            tid: {"state": ts.state, "result": ts.result, "error": ts.error}
            for tid, ts in sorted(state.parallel_tasks.items())
        },
        "prompts": sorted(prompts),
    }


async def run_scenario(server, executor, scenario: dict, cwd: str) -> dict:
    executor._flows.clear()
    spec, inputs = scenario["spec"], scenario.get("inputs", {})
    raw = [await server.stratum_plan(spec=spec, flow="main", inputs=json.loads(json.dumps(inputs)), ctx=None)]
    root = raw[0].get("flow_id") if isinstance(raw[0], dict) else None
    for action in scenario["actions"]:
        copy = json.loads(json.dumps(action))
        op = action["op"]
        if op == "plan":
            response = await server.stratum_plan(spec=action["spec"], flow="main", inputs={}, ctx=None)
        elif op == "step_done":
            response = await server.stratum_step_done(root, action["step_id"], copy["result"], ctx=None)
        elif op == "parallel_done":
            response = await server.stratum_parallel_done(
                flow_id=root, step_id=action["step_id"], task_results=copy["task_results"],
                merge_status=copy["merge_status"], ctx=None,
            )
        elif op == "audit":
            response = await server.stratum_audit(root, ctx=None)
        elif op == "resume":
            response = await server.stratum_resume(root, ctx=None)
        else:
            raise ValueError(f"{scenario['name']}: op {op} is not recorded by this script")
        raw.append(response)
    normalise = v03.Normaliser(cwd)
    seen: list[str] = []
    v03.collect_flow_ids(raw, seen)
    for fid in seen:
        normalise.learn(fid)
    ops = ["plan"] + [a["op"] for a in scenario["actions"]]
    out = {
        "name": scenario["name"],
        "description": scenario["description"],
        "recorded_from": "smartmemory/stratum 63fc11d (stratum-mcp 0.2.69) by scripts/record-0269-scenarios.py",
        "spec": spec,
        "flow": "main",
        "inputs": inputs,
        "actions": scenario["actions"],
        "reference": [{"op": op, "response": normalise(r)} for op, r in zip(ops, raw)],
    }
    if "labels" in scenario:
        out["labels"] = scenario["labels"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", default="/work/.mirror/smartmemory+stratum/repo")
    parser.add_argument("--commit", default="63fc11d")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="stratum-ref-0269-") as scratch:
        v03.prepare_reference(args.repo, args.commit, Path(scratch))
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
        predicates = record_predicates(executor)
        path = SCENARIOS_DIR.parent / "v0269-pipeline-predicates.jsonl"
        header = {
            "about": "when/exit_when of type: pipeline evaluated as stratum-mcp 0.2.69 (smartmemory/stratum "
            "63fc11d) evaluates them server-side; made by scripts/record-0269-scenarios.py; "
            "test/conformance/recorded/README.md section 2.4",
        }
        lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(p, ensure_ascii=False) for p in predicates]
        path.write_text("\n".join(lines) + "\n")
        print(f"{path.name}: {len(predicates)} cases")
        runs = [asyncio.run(record_server_run(executor, run)) for run in SERVER_RUNS]
        path = SCENARIOS_DIR.parent / "v0269-pipeline-server-runs.json"
        document = {
            "about": "type: pipeline run by the server-side executor of stratum-mcp 0.2.69 (smartmemory/stratum "
            "63fc11d) with a scripted agent; made by scripts/record-0269-scenarios.py; "
            "test/conformance/recorded/README.md section 2.4",
            "runs": runs,
        }
        path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        print(f"{path.name}: {[(r['name'], sorted({t['state'] for t in r['tasks'].values()})) for r in runs]}")


if __name__ == "__main__":
    main()
