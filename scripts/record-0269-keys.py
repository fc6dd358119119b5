# scripts/record-0269-keys.py: records how stratum-mcp 0.2.69 (smartmemory/stratum at 63fc11d)
# judges and runs the keys `guardrails`, `score_expr`, `judge` (with the `stratum_judge` tool) and
# `cache`, and how 0.2.50 (ecc1aa5) judged the same specs.
#
# Usage: python3 scripts/record-0269-keys.py [--repo GIT_DIR]
#
# Output:
#   test/conformance/recorded/validation-0269-keys.jsonl   one validation case per line:
#       {name, description, yaml, reference_0269, reference_0250}; each reference value is that
#       version's `stratum_validate` result ({valid, errors:[...]}).
#   test/conformance/recorded/scenarios-0269/NAME.json      one runtime scenario per file, in the
#       format of test/conformance/recorded/README.md §2 (reference recorded at 63fc11d), plus the
#       ops `plan` (a further stratum_plan of the scenario spec) and `judge` (stratum_judge).
#
# The reference runs in a child process per version, set up as scripts/record-v03-scenarios.py does
# (its `prepare_reference` and normaliser are reused), with looser stubs: 0.2.69 imports more names
# from claude_agent_sdk, and `stratum.judge` answers any name so stratum_judge reaches its argument
# checks (its real judging needs the SmartMemory `stratum` library, which is not recorded here).
# HOME is a scratch directory; the result cache (~/.stratum/cache/results) is emptied before each
# scenario. The consumer path only: no agent is spawned.
from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
RECORDED = REPO_ROOT / "test" / "conformance" / "recorded"
SCENARIOS_DIR = RECORDED / "scenarios-0269"
HEAD, OLD = "63fc11d", "ecc1aa5"

LOOSE = (
    "def __getattr__(name):\n"
    "    if name.startswith('__'):\n"
    "        raise AttributeError(name)\n"
    "    return type(name, (Exception,), {})\n"
)


def load_v03_recorder():
    spec = importlib.util.spec_from_file_location("record_v03", REPO_ROOT / "scripts" / "record-v03-scenarios.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.STUBS["claude_agent_sdk/types.py"] = LOOSE
    module.STUBS["claude_agent_sdk/__init__.py"] = LOOSE + "\n\nasync def query(*args, **kwargs):\n    if False:\n        yield None\n"
    module.STUBS["stratum/judge/__init__.py"] = LOOSE
    module.STUBS["stratum/judge/kernel.py"] = LOOSE
    return module


# ---------------------------------------------------------------------------
# Validation cases
# ---------------------------------------------------------------------------


def spec(functions: str = "", steps: str = "", contracts: str = "", version: str = "0.2") -> str:
    out = f'version: "{version}"\n'
    out += "contracts:\n  Out:\n    v: {type: string}\n    score: {type: number}\n" + contracts
    out += "functions:\n  work:\n    mode: compute\n    intent: w\n    input: {}\n    output: Out\n"
    out += "  think:\n    mode: infer\n    intent: t\n    input: {}\n    output: Out\n"
    out += "  approve:\n    mode: gate\n" + functions
    out += "flows:\n  main:\n    input: {}\n    steps:\n" + steps
    return out


def indent(text: str, n: int) -> str:
    return "".join(" " * n + line + "\n" for line in text.strip("\n").split("\n"))


def step(text: str) -> str:
    return indent(text, 6)


def fn(text: str) -> str:
    return indent(text, 2)


JUDGE = "judge:\n  predicates:\n    - {id: p1, type: deterministic, statement: tests pass}\n"

CASES = [
    # guardrails
    ("guardrails_function_ok", "guardrails on an infer function", spec(fn("scan:\n  mode: infer\n  intent: s\n  input: {}\n  output: Out\n  guardrails: ['rm -rf', '(?i)password']"), step("- id: a\n  function: scan"))),
    ("guardrails_inline_step_ok", "guardrails on an inline step", spec(steps=step("- id: a\n  intent: do\n  guardrails: ['secret']"))),
    ("guardrails_gate_function", "guardrails on a gate function", spec(fn("g2:\n  mode: gate\n  guardrails: ['x']"), step("- id: a\n  intent: do\n- id: b\n  function: g2\n  on_approve: ~\n  on_revise: a\n  on_kill: ~"))),
    ("guardrails_function_bad_regex", "a function guardrail that is not a valid regex", spec(fn("scan:\n  mode: infer\n  intent: s\n  input: {}\n  output: Out\n  guardrails: ['([']"), step("- id: a\n  function: scan"))),
    ("guardrails_step_bad_regex", "a step guardrail that is not a valid regex", spec(steps=step("- id: a\n  intent: do\n  guardrails: ['ok', '*bad']"))),
    ("guardrails_empty_pattern", "an empty guardrail pattern", spec(steps=step("- id: a\n  intent: do\n  guardrails: ['']"))),
    ("guardrails_not_list", "guardrails given as a string", spec(steps=step("- id: a\n  intent: do\n  guardrails: 'secret'"))),
    ("guardrails_on_function_step", "step-level guardrails on a function step", spec(steps=step("- id: a\n  function: work\n  guardrails: ['x']"))),
    ("guardrails_on_flow_step", "step-level guardrails on a flow step", spec(steps=step("- id: a\n  flow: sub\n  guardrails: ['x']")) + "  sub:\n    input: {}\n    steps:\n      - id: s\n        intent: do\n"),
    ("guardrails_on_gate_step", "step-level guardrails on a gate step", spec(steps=step("- id: a\n  intent: do\n- id: b\n  function: approve\n  guardrails: ['x']\n  on_approve: ~\n  on_revise: a\n  on_kill: ~"))),
    ("guardrails_enable_on_fail", "on_fail with only guardrails to fail on", spec(steps=step("- id: a\n  intent: do\n  guardrails: ['x']\n  on_fail: b\n- id: b\n  intent: fix"))),
    ("guardrails_fn_enable_on_fail", "on_fail on a function step whose function has guardrails", spec(fn("scan:\n  mode: infer\n  intent: s\n  input: {}\n  output: Out\n  guardrails: ['x']"), step("- id: a\n  function: scan\n  on_fail: b\n- id: b\n  intent: fix"))),
    ("guardrails_v01", "guardrails on a version 0.1 function", 'version: "0.1"\ncontracts:\n  Out:\n    v: {type: string}\nfunctions:\n  work:\n    mode: infer\n    intent: w\n    input: {}\n    output: Out\n    guardrails: [x]\nflows:\n  main:\n    input: {}\n    output: Out\n    steps:\n      - id: a\n        function: work\n        inputs: {}\n'),
    # score_expr
    ("score_expr_ok", "score_expr with max_iterations", spec(steps=step("- id: a\n  intent: do\n  max_iterations: 3\n  score_expr: result.score"))),
    ("score_expr_no_max_iterations", "score_expr without max_iterations", spec(steps=step("- id: a\n  intent: do\n  score_expr: result.score"))),
    ("score_expr_dunder", "score_expr with a dunder attribute", spec(steps=step("- id: a\n  intent: do\n  max_iterations: 3\n  score_expr: result.__class__"))),
    ("score_expr_on_gate", "score_expr on a gate step", spec(steps=step("- id: a\n  intent: do\n- id: b\n  function: approve\n  score_expr: '1'\n  on_approve: ~\n  on_revise: a\n  on_kill: ~"))),
    ("score_expr_syntax_error", "score_expr that does not parse", spec(steps=step("- id: a\n  intent: do\n  max_iterations: 3\n  score_expr: 'result.score +'"))),
    ("score_expr_unknown_name", "score_expr naming an unknown name", spec(steps=step("- id: a\n  intent: do\n  max_iterations: 3\n  score_expr: 'bogus + 1'"))),
    ("score_expr_on_function_step", "score_expr with max_iterations on a function step", spec(steps=step("- id: a\n  function: work\n  max_iterations: 3\n  score_expr: result.score"))),
    ("score_expr_not_string", "score_expr given as a number", spec(steps=step("- id: a\n  intent: do\n  max_iterations: 3\n  score_expr: 5"))),
    ("score_expr_exit_names", "exit_criterion reading best_score, prior_scores and iteration next to score_expr", spec(steps=step("- id: a\n  intent: do\n  max_iterations: 5\n  score_expr: result.score\n  exit_criterion: 'best_score is not None and best_score >= 0.9 or iteration >= 4 or len(prior_scores) > 3'"))),
    ("score_expr_exit_names_without_score", "exit_criterion reading best_score without score_expr", spec(steps=step("- id: a\n  intent: do\n  max_iterations: 5\n  exit_criterion: 'best_score >= 0.9'"))),
    ("score_expr_on_parallel", "score_expr on a parallel_dispatch step", spec(steps=step("- id: d\n  type: decompose\n  agent: claude\n  intent: split\n  output_contract: Out\n- id: a\n  type: parallel_dispatch\n  source: $.steps.d.output.tasks\n  intent_template: 'do {task.id}'\n  max_iterations: 2\n  score_expr: '1'\n  depends_on: [d]"), version="0.3")),
    # judge
    ("judge_step_ok", "a judge step with predicates, stakes, budget, ensure and retries", spec(steps=step("- id: a\n  intent: do\n- id: j\n  depends_on: [a]\n  " + JUDGE.replace("\n", "\n  ").rstrip() + "\n    stakes: paranoid\n    budget: {max_usd: 1.5}\n  ensure: ['result.verdict == \"pass\"']\n  retries: 2"))),
    ("judge_with_intent", "a judge step that also has intent", spec(steps=step("- id: j\n  intent: do\n  " + JUDGE.replace("\n", "\n  ").rstrip()))),
    ("judge_with_function", "a judge step that also has function", spec(steps=step("- id: j\n  function: work\n  " + JUDGE.replace("\n", "\n  ").rstrip()))),
    ("judge_no_predicates", "judge without predicates", spec(steps=step("- id: j\n  judge: {stakes: cheap}"))),
    ("judge_empty_predicates", "judge with an empty predicate list", spec(steps=step("- id: j\n  judge: {predicates: []}"))),
    ("judge_predicate_bad_type", "a predicate type outside the enum", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: vibes, statement: s}"))),
    ("judge_predicate_missing_statement", "a predicate without statement", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: judged}"))),
    ("judge_predicate_extra_key", "a predicate with an extra key", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: judged, statement: s, weight: 2}"))),
    ("judge_applied_gate_range", "applied_gate 11 (maximum 10)", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: verified, statement: s, applied_gate: 11}"))),
    ("judge_bad_stakes", "stakes outside the enum", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: judged, statement: s}\n    stakes: high"))),
    ("judge_extra_key", "an unknown key inside judge", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: judged, statement: s}\n    model: x"))),
    ("judge_budget_keys", "judge budget with unknown keys", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: judged, statement: s}\n    budget: {tokens: 5}"))),
    ("judge_not_mapping", "judge given as a list", spec(steps=step("- id: j\n  judge: [a]"))),
    ("judge_with_output_schema", "a judge step with output_schema and on_fail", spec(steps=step("- id: j\n  " + JUDGE.replace("\n", "\n  ").rstrip() + "\n  output_schema: {type: object}\n  on_fail: k\n- id: k\n  intent: fix"))),
    ("judge_with_guardrails", "a judge step with guardrails", spec(steps=step("- id: j\n  " + JUDGE.replace("\n", "\n  ").rstrip() + "\n  guardrails: ['x']"))),
    ("judge_inline_fields", "a judge step with skip_if, agent, model and on_fail", spec(steps=step("- id: a\n  intent: do\n- id: j\n  depends_on: [a]\n  skip_if: 'false'\n  agent: claude\n  model: opus\n  " + JUDGE.replace("\n", "\n  ").rstrip() + "\n  ensure: ['result.ok']\n  on_fail: a"))),
    ("judge_budget_negative", "judge budget with a negative max_dollars", spec(steps=step("- id: j\n  judge:\n    predicates:\n      - {id: p1, type: judged, statement: s}\n    budget: {max_dollars: -1}"))),
    ("guardrails_on_decompose", "guardrails on a decompose step", spec(steps=step("- id: d\n  type: decompose\n  agent: claude\n  intent: split\n  output_contract: Out\n  guardrails: ['x']"), version="0.3")),
    ("judge_as_gate_target", "a gate revising to a judge step", spec(steps=step("- id: j\n  " + JUDGE.replace("\n", "\n  ").rstrip() + "\n- id: g\n  function: approve\n  on_approve: ~\n  on_revise: j\n  on_kill: ~"))),
    # cache
    ("cache_compute_function_ok", "cache: true on a compute function", spec(fn("calc:\n  mode: compute\n  intent: c\n  input: {}\n  output: Out\n  cache: true"), step("- id: a\n  function: calc"))),
    ("cache_step_on_compute_ok", "cache: true on a function step of a compute function", spec(steps=step("- id: a\n  function: work\n  cache: true"))),
    ("cache_step_on_infer", "cache: true on a function step of an infer function", spec(steps=step("- id: a\n  function: think\n  cache: true"))),
    ("cache_infer_function_used", "cache: true on an infer function used by a step", spec(fn("guess:\n  mode: infer\n  intent: g\n  input: {}\n  output: Out\n  cache: true"), step("- id: a\n  function: guess"))),
    ("cache_infer_function_unused", "cache: true on an infer function no step uses", spec(fn("guess:\n  mode: infer\n  intent: g\n  input: {}\n  output: Out\n  cache: true"), step("- id: a\n  intent: do"))),
    ("cache_gate_function", "cache: true on a gate function used by a gate step", spec(fn("g2:\n  mode: gate\n  cache: true"), step("- id: a\n  intent: do\n- id: b\n  function: g2\n  on_approve: ~\n  on_revise: a\n  on_kill: ~"))),
    ("cache_inline_step", "cache: true on an inline step", spec(steps=step("- id: a\n  intent: do\n  cache: true"))),
    ("cache_flow_step", "cache: true on a flow step", spec(steps=step("- id: a\n  flow: sub\n  cache: true")) + "  sub:\n    input: {}\n    steps:\n      - id: s\n        intent: do\n"),
    ("cache_iteration", "cache: true with max_iterations", spec(steps=step("- id: a\n  function: work\n  cache: true\n  max_iterations: 2"))),
    ("cache_function_on_iteration_step", "function-level cache on a step with max_iterations", spec(fn("calc:\n  mode: compute\n  intent: c\n  input: {}\n  output: Out\n  cache: true"), step("- id: a\n  function: calc\n  max_iterations: 2"))),
    ("cache_accumulate", "cache: true with accumulate", spec(steps=step("- id: a\n  function: work\n  cache: true\n  max_iterations: 2\n  accumulate: result.v"))),
    ("cache_next", "cache: true on a routing step (next)", spec(steps=step("- id: a\n  function: work\n  cache: true\n  next: b\n- id: b\n  intent: do"))),
    ("cache_on_fail", "cache: true with on_fail (allowed)", spec(fn("calc:\n  mode: compute\n  intent: c\n  input: {}\n  output: Out\n  ensure: ['result.v != \"\"']\n"), step("- id: a\n  function: calc\n  cache: true\n  on_fail: b\n- id: b\n  intent: do"))),
    ("cache_unknown_function", "cache: true on a step naming an unknown function", spec(steps=step("- id: a\n  function: nope\n  cache: true"))),
    ("cache_not_boolean", "cache given as a string", spec(steps=step("- id: a\n  function: work\n  cache: 'yes'"))),
    ("cache_false_inline", "cache: false on an inline step", spec(steps=step("- id: a\n  intent: do\n  cache: false"))),
    ("cache_skip_if", "cache: true with skip_if", spec(steps=step("- id: a\n  function: work\n  cache: true\n  skip_if: 'false'"))),
    ("cache_v01", "cache on a version 0.1 function", 'version: "0.1"\ncontracts:\n  Out:\n    v: {type: string}\nfunctions:\n  work:\n    mode: compute\n    intent: w\n    input: {}\n    output: Out\n    cache: true\nflows:\n  main:\n    input: {}\n    output: Out\n    steps:\n      - id: a\n        function: work\n        inputs: {}\n'),
    # goal: no spec key
    ("goal_key_on_step", "a goal key on a step (goal_* are tools, not spec keys)", spec(steps=step("- id: a\n  intent: do\n  goal_id: g1"))),
]

# ---------------------------------------------------------------------------
# Runtime scenarios
# ---------------------------------------------------------------------------

GUARD_SPEC = spec(
    fn("scan:\n  mode: infer\n  intent: s\n  input: {}\n  output: Out\n  retries: 2\n  guardrails: ['rm -rf', 'password\\s*=']"),
    step("- id: a\n  function: scan\n- id: b\n  intent: fix\n  guardrails: ['TODO']\n  on_fail: c\n  depends_on: [a]\n- id: c\n  intent: repair\n  depends_on: [a]"),
)

SCORE_SPEC = spec(steps=step("- id: a\n  intent: improve\n  max_iterations: 4\n  score_expr: result.score\n- id: b\n  intent: after\n  depends_on: [a]"))
SCORE_EXIT_SPEC = spec(steps=step("- id: a\n  intent: improve\n  max_iterations: 5\n  score_expr: result.score\n  exit_criterion: 'best_score >= 0.9 or iteration >= 4'"))
SCORE_STAGNATION_SPEC = spec(steps=step("- id: a\n  intent: improve\n  max_iterations: 8\n  score_expr: result.score"))
SCORE_BAD_SPEC = spec(steps=step("- id: a\n  intent: improve\n  max_iterations: 2\n  score_expr: 'result.score > 1'"))

JUDGE_SPEC = spec(steps=step(
    "- id: a\n  intent: do\n- id: j\n  depends_on: [a]\n  judge:\n    predicates:\n      - {id: p1, type: deterministic, statement: tests pass}\n"
    "      - {id: p2, type: judged, statement: code is clear}\n    stakes: cheap\n  ensure: ['result.verdict == \"pass\"']\n  retries: 2"
))

CACHE_SPEC = spec(
    fn("calc:\n  mode: compute\n  intent: c\n  input: {n: {type: integer}}\n  output: Out\n  cache: true"),
    step("- id: a\n  function: calc\n  inputs: {n: $.input.n}\n- id: b\n  intent: use\n  inputs: {v: $.steps.a.output.v}").replace("    input: {}\n    steps:", "    input: {n: {type: integer}}\n    steps:"),
)


def sd(step_id, result, **extra):
    return {"op": "step_done", "step_id": step_id, "result": result, **extra}


def it_start(step_id):
    return {"op": "iteration_start", "step_id": step_id}


def it_report(step_id, result):
    return {"op": "iteration_report", "step_id": step_id, "result": result}


AUDIT = {"op": "audit"}

SCENARIOS = [
    {"name": "guardrails_block_retry_then_pass", "description": "function guardrails: a matching result is guardrail_blocked (retries 2), a clean one passes; an inline step's guardrail exhausts its one attempt and routes on_fail", "spec": GUARD_SPEC, "actions": [
        sd("a", {"v": "run rm -RF /", "score": 1}), sd("a", {"v": "clean", "score": 1}), sd("b", {"v": "TODO later", "score": 0}), AUDIT]},
    {"name": "guardrails_exhausted", "description": "function guardrails matching on both attempts: retries_exhausted with the guardrail violations (both patterns)", "spec": GUARD_SPEC, "actions": [
        sd("a", {"v": "password = 1; rm -rf x", "score": 1}), sd("a", {"v": "PASSWORD=2", "score": 1}), AUDIT]},
    {"name": "score_expr_best_of_max", "description": "score_expr: 4 iterations reach exit_max; the final result is the best-scored one (ties keep the earlier); step_done's result is replaced by the best; the audit keeps scores", "spec": SCORE_SPEC, "actions": [
        it_start("a"), it_report("a", {"v": "one", "score": 0.2}), it_report("a", {"v": "two", "score": 0.7}), it_report("a", {"v": "three", "score": 0.7}), it_report("a", {"v": "four", "score": 0.1}),
        sd("a", {"v": "ignored", "score": 0}), AUDIT]},
    {"name": "score_expr_exit_criterion_names", "description": "exit_criterion reading best_score and iteration next to score_expr: exits once the best score reaches 0.9", "spec": SCORE_EXIT_SPEC, "actions": [
        it_start("a"), it_report("a", {"v": "x", "score": 0.5}), it_report("a", {"v": "y", "score": 0.95}), sd("a", {"v": "z", "score": 0}), AUDIT]},
    {"name": "score_expr_stagnation", "description": "score_expr without exit_criterion: no improvement over the best for 3 iterations exits with exit_stagnation", "spec": SCORE_STAGNATION_SPEC, "actions": [
        it_start("a"), it_report("a", {"v": "a", "score": 0.5}), it_report("a", {"v": "b", "score": 0.4}), it_report("a", {"v": "c", "score": 0.5}), it_report("a", {"v": "d", "score": 0.3}), sd("a", {"v": "e", "score": 0})]},
    {"name": "score_expr_errors", "description": "a score_expr returning a bool, and one reading a missing field: score null with score_error, no best, final_result is the last result", "spec": SCORE_BAD_SPEC, "actions": [
        it_start("a"), it_report("a", {"v": "a", "score": 2}), it_report("a", {"v": "b"}), sd("a", {"v": "c", "score": 0}), AUDIT]},
    {"name": "judge_step_consumer", "description": "a judge step: the plan dispatches step_mode judge with predicates, stakes, budget, ensure, retries_remaining; stratum_judge refuses a wrong step and mismatched predicates/stakes; step_done with a failing then passing verdict", "spec": JUDGE_SPEC, "actions": [
        sd("a", {"v": "done"}),
        {"op": "judge", "step_id": "a", "predicates": [], "artifacts": {}},
        {"op": "judge", "step_id": "j", "predicates": [{"id": "p1", "type": "deterministic", "statement": "tests pass"}], "artifacts": {}, "stakes": "cheap"},
        {"op": "judge", "step_id": "j", "predicates": [{"id": "p1", "type": "deterministic", "statement": "tests pass"}, {"id": "p2", "type": "judged", "statement": "code is clear"}], "artifacts": {}, "stakes": "default"},
        sd("j", {"verdict": "fail"}), sd("j", {"verdict": "pass"}), AUDIT]},
    {"name": "cache_hit_on_second_run", "description": "cache: true on a compute function: a second plan of the same spec and inputs serves step a from the cache and dispatches b; the audit counts cache_hits and marks the record; other inputs miss", "spec": CACHE_SPEC, "inputs": {"n": 1}, "actions": [
        sd("a", {"v": "one", "score": 1}), sd("b", {"v": "used", "score": 1}),
        {"op": "plan", "inputs": {"n": 1}}, {"op": "audit", "flow": "last_plan"},
        {"op": "plan", "inputs": {"n": 2}}]},
    {"name": "cache_failed_result_not_stored", "description": "a compute step whose result fails its ensure is not cached: the next plan dispatches it again", "spec": CACHE_SPEC.replace("    cache: true\n", "    cache: true\n    ensure: ['result.score > 0']\n    retries: 2\n"), "inputs": {"n": 1}, "actions": [
        sd("a", {"v": "bad", "score": 0}), {"op": "plan", "inputs": {"n": 1}}]},
]


async def run_scenario(rec, server, executor, scenario: dict, cwd: str) -> dict:
    executor._flows.clear()
    shutil.rmtree(Path(os.environ["HOME"]) / ".stratum" / "cache", ignore_errors=True)
    text, inputs = scenario["spec"], scenario.get("inputs", {})
    raw = [await server.stratum_plan(spec=text, flow="main", inputs=json.loads(json.dumps(inputs)), ctx=None)]
    root = raw[0].get("flow_id") if isinstance(raw[0], dict) else None
    last_plan = root
    for action in scenario["actions"]:
        flow = action.get("flow", "root")
        flow_id = {"root": root, "last_plan": last_plan}.get(flow, flow)
        op = action["op"]
        copy = json.loads(json.dumps(action))
        if op == "step_done":
            response = await server.stratum_step_done(flow_id, action["step_id"], copy["result"], ctx=None)
        elif op == "iteration_start":
            response = await server.stratum_iteration_start(flow_id, action["step_id"], ctx=None)
        elif op == "iteration_report":
            response = await server.stratum_iteration_report(flow_id, action["step_id"], copy["result"], ctx=None)
        elif op == "audit":
            response = await server.stratum_audit(flow_id, ctx=None)
        elif op == "plan":
            response = await server.stratum_plan(spec=text, flow="main", inputs=copy["inputs"], ctx=None)
            last_plan = response.get("flow_id")
        elif op == "judge":
            response = await server.stratum_judge(
                flow_id=flow_id, step_id=action["step_id"], predicates=copy["predicates"],
                artifacts=copy["artifacts"], ctx=None, stakes=action.get("stakes", "default"),
            )
        else:
            raise ValueError(f"{scenario['name']}: op {op} is not recorded by this script")
        raw.append(response)
    normalise = rec.Normaliser(cwd)
    seen: list[str] = []
    rec.collect_flow_ids(raw, seen)
    for fid in seen:
        normalise.learn(fid)
    # cache keys are content hashes over the spec text and inputs: kept, but named like flow ids
    keys: list[str] = []
    collect_cache_keys(raw, keys)
    ops = ["plan"] + [a["op"] for a in scenario["actions"]]
    reference = [{"op": op, "response": rename_keys(normalise(r), keys)} for op, r in zip(ops, raw)]
    out = {
        "name": scenario["name"],
        "description": scenario["description"],
        "spec": text,
        "flow": "main",
        "inputs": inputs,
        "actions": scenario["actions"],
        "reference": reference,
    }
    return out


def collect_cache_keys(value, seen: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "cache_key" and isinstance(v, str) and v not in seen:
                seen.append(v)
            collect_cache_keys(v, seen)
    elif isinstance(value, list):
        for v in value:
            collect_cache_keys(v, seen)


def rename_keys(value, keys: list[str]):
    if isinstance(value, dict):
        return {k: rename_keys(v, keys) for k, v in value.items()}
    if isinstance(value, list):
        return [rename_keys(v, keys) for v in value]
    if isinstance(value, str) and value in keys:
        return f"CACHE_KEY_{keys.index(value) + 1}"
    return value


def worker(repo: str, commit: str, with_scenarios: bool) -> None:
    """Runs in a child process: one reference version, results as JSON on stdout."""
    rec = load_v03_recorder()
    with tempfile.TemporaryDirectory(prefix=f"stratum-ref-{commit}-") as scratch:
        real_stdout = sys.stdout
        sys.stdout = sys.stderr  # the reference may print; keep stdout for the JSON
        rec.prepare_reference(repo, commit, Path(scratch))
        cwd = os.path.realpath(SCENARIOS_DIR)
        os.chdir(cwd)
        import stratum_mcp.executor as executor  # noqa: E402 (after the path set-up)
        import stratum_mcp.server as server  # noqa: E402

        out = {"validation": {}, "scenarios": []}
        for name, _description, text in CASES:
            out["validation"][name] = asyncio.run(server.stratum_validate(text, ctx=None))
        if with_scenarios:
            for scenario in SCENARIOS:
                out["scenarios"].append(asyncio.run(run_scenario(rec, server, executor, scenario, cwd)))
        sys.stdout = real_stdout
        json.dump(out, sys.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", default="/work/.mirror/smartmemory+stratum/repo")
    parser.add_argument("--worker", choices=[HEAD, OLD])
    args = parser.parse_args()
    if args.worker:
        worker(args.repo, args.worker, args.worker == HEAD)
        return
    SCENARIOS_DIR.mkdir(parents=True, exist_ok=True)
    results = {}
    for commit in (HEAD, OLD):
        done = subprocess.run(
            [sys.executable, __file__, "--repo", args.repo, "--worker", commit], check=True, capture_output=True, text=True
        )
        results[commit] = json.loads(done.stdout)
    lines = []
    for name, description, text in CASES:
        lines.append(json.dumps({
            "name": name, "description": description, "yaml": text,
            "reference_0269": results[HEAD]["validation"][name],
            "reference_0250": results[OLD]["validation"][name],
        }, ensure_ascii=False))
    (RECORDED / "validation-0269-keys.jsonl").write_text("\n".join(lines) + "\n")
    for scenario in results[HEAD]["scenarios"]:
        path = SCENARIOS_DIR / f"{scenario['name']}.json"
        path.write_text(json.dumps(scenario, indent=2, ensure_ascii=False) + "\n")
        statuses = [(r["response"] or {}).get("status") or (r["response"] or {}).get("error_type") for r in scenario["reference"]]
        print(f"{path.name}: {statuses}")
    for name, *_ in CASES:
        new, old = results[HEAD]["validation"][name], results[OLD]["validation"][name]
        def brief(r):
            return "ok" if r["valid"] else (r["errors"][0].get("path") or "") + ": " + r["errors"][0]["message"][:90]
        print(f"{name}: 0.2.69 {brief(new)} | 0.2.50 {brief(old)}")


if __name__ == "__main__":
    main()
