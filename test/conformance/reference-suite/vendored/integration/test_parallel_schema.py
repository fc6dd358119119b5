"""Tests for IR v0.3 parallel task decomposition schema and validation."""
import pytest

from stratum_mcp.errors import IRSemanticError
from stratum_mcp.spec import parse_and_validate
from stratum_mcp.executor import _ENSURE_BUILTINS


# ---------------------------------------------------------------------------
# Fixtures: valid v0.3 spec with decompose + parallel_dispatch
# ---------------------------------------------------------------------------

_VALID_V03_SPEC = """
version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
  PhaseResult:
    outcome: {type: string}
functions:
  work:
    mode: infer
    intent: "Produce output"
    input: {}
    output: PhaseResult
flows:
  build:
    input: {plan: {type: string}}
    output: PhaseResult
    steps:
      - id: do_work
        function: work
        inputs: {plan: "$.input.plan"}
      - id: analyze
        type: decompose
        agent: claude
        intent: "Analyze the plan and produce a TaskGraph"
        output_contract: TaskGraph
        ensure:
          - "no_file_conflicts(result.tasks)"
        depends_on: [do_work]
      - id: execute
        type: parallel_dispatch
        source: "$.steps.analyze.output.tasks"
        agent: claude
        max_concurrent: 3
        isolation: worktree
        require: all
        merge: sequential_apply
        intent_template: "Implement: {task.description}"
        depends_on: [analyze]
"""

# Minimal v0.2 spec for backward compat testing
_VALID_V02_SPEC = """
version: "0.2"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Produce output"
    input: {}
    output: Out
flows:
  f:
    input: {}
    output: Out
    steps:
      - id: s1
        function: work
        inputs: {}
"""


# ---------------------------------------------------------------------------
# 1. v0.3 schema validates decompose + parallel_dispatch steps
# ---------------------------------------------------------------------------

def test_v03_spec_parses():
    spec = parse_and_validate(_VALID_V03_SPEC)
    assert spec.version == "0.3"
    steps = {s.id: s for s in spec.flows["build"].steps}
    assert steps["analyze"].step_type == "decompose"
    assert steps["execute"].step_type == "parallel_dispatch"
    assert steps["execute"].max_concurrent == 3
    assert steps["execute"].isolation == "worktree"
    assert steps["execute"].require == "all"
    assert steps["execute"].merge == "sequential_apply"
    assert steps["execute"].source == "$.steps.analyze.output.tasks"


# ---------------------------------------------------------------------------
# 2. v0.2 specs still work (backward compatibility)
# ---------------------------------------------------------------------------

def test_v02_backward_compat():
    spec = parse_and_validate(_VALID_V02_SPEC)
    assert spec.version == "0.2"
    assert "work" in spec.functions


# ---------------------------------------------------------------------------
# 3-5. no_file_conflicts built-in ensure function
# ---------------------------------------------------------------------------

@pytest.fixture
def no_file_conflicts():
    return _ENSURE_BUILTINS["no_file_conflicts"]


def test_no_file_conflicts_disjoint_files(no_file_conflicts):
    """Passes when tasks have disjoint files_owned."""
    tasks = [
        {"id": "t1", "files_owned": ["a.py", "b.py"], "depends_on": []},
        {"id": "t2", "files_owned": ["c.py", "d.py"], "depends_on": []},
    ]
    assert no_file_conflicts(tasks) is True


def test_no_file_conflicts_overlap_fails(no_file_conflicts):
    """Fails when independent tasks share files_owned."""
    tasks = [
        {"id": "t1", "files_owned": ["shared.py", "a.py"], "depends_on": []},
        {"id": "t2", "files_owned": ["shared.py", "b.py"], "depends_on": []},
    ]
    with pytest.raises(ValueError, match="shared.py"):
        no_file_conflicts(tasks)


def test_no_file_conflicts_overlap_with_dependency(no_file_conflicts):
    """Passes when overlapping tasks have dependency edges."""
    tasks = [
        {"id": "t1", "files_owned": ["shared.py"], "depends_on": []},
        {"id": "t2", "files_owned": ["shared.py"], "depends_on": ["t1"]},
    ]
    assert no_file_conflicts(tasks) is True


def test_no_file_conflicts_read_overlap_allowed(no_file_conflicts):
    """Read-only overlap (files_read) is allowed between independent tasks."""
    tasks = [
        {"id": "t1", "files_owned": ["a.py"], "files_read": ["config.py"], "depends_on": []},
        {"id": "t2", "files_owned": ["b.py"], "files_read": ["config.py"], "depends_on": []},
    ]
    assert no_file_conflicts(tasks) is True


def test_no_file_conflicts_transitive_dependency(no_file_conflicts):
    """Passes when overlap exists but tasks are transitively dependent."""
    tasks = [
        {"id": "t1", "files_owned": ["shared.py"], "depends_on": []},
        {"id": "t2", "files_owned": ["other.py"], "depends_on": ["t1"]},
        {"id": "t3", "files_owned": ["shared.py"], "depends_on": ["t2"]},
    ]
    # t3 transitively depends on t1 via t2, so overlap is allowed
    assert no_file_conflicts(tasks) is True


# ---------------------------------------------------------------------------
# 6. Semantic validation: decompose requires output_contract
# ---------------------------------------------------------------------------

def test_decompose_requires_output_contract():
    ir = _VALID_V03_SPEC.replace(
        "        output_contract: TaskGraph\n",
        "",
    )
    with pytest.raises(IRSemanticError, match="output_contract"):
        parse_and_validate(ir)


def test_decompose_requires_agent():
    ir = _VALID_V03_SPEC.replace(
        "        agent: claude\n        intent: \"Analyze the plan and produce a TaskGraph\"\n",
        "        intent: \"Analyze the plan and produce a TaskGraph\"\n",
    )
    with pytest.raises(IRSemanticError, match="agent"):
        parse_and_validate(ir)


def test_decompose_requires_intent():
    ir = _VALID_V03_SPEC.replace(
        "        intent: \"Analyze the plan and produce a TaskGraph\"\n",
        "",
    )
    with pytest.raises(IRSemanticError, match="intent"):
        parse_and_validate(ir)


# ---------------------------------------------------------------------------
# 7. Semantic validation: parallel_dispatch requires source and intent_template
# ---------------------------------------------------------------------------

def test_parallel_dispatch_requires_source():
    ir = _VALID_V03_SPEC.replace(
        '        source: "$.steps.analyze.output.tasks"\n',
        "",
    )
    with pytest.raises(IRSemanticError, match="source"):
        parse_and_validate(ir)


def test_parallel_dispatch_requires_intent_template():
    ir = _VALID_V03_SPEC.replace(
        '        intent_template: "Implement: {task.description}"\n',
        "",
    )
    with pytest.raises(IRSemanticError, match="intent_template"):
        parse_and_validate(ir)


# ---------------------------------------------------------------------------
# 8. Semantic validation: parallel_dispatch fields forbidden on other step types
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("field,value", [
    ("source", '"$.steps.s1.output"'),
    ("isolation", "worktree"),
    ("require", "all"),
    ("merge", "sequential_apply"),
])
def test_parallel_dispatch_fields_forbidden_on_function_step(field, value):
    ir = f"""
version: "0.3"
contracts:
  Out:
    v: {{type: string}}
functions:
  work:
    mode: infer
    intent: "Produce output"
    input: {{}}
    output: Out
flows:
  f:
    input: {{}}
    output: Out
    steps:
      - id: s1
        function: work
        inputs: {{}}
        {field}: {value}
"""
    with pytest.raises(IRSemanticError, match=field):
        parse_and_validate(ir)


# ---------------------------------------------------------------------------
# 9. Semantic validation: intent_template forbidden on non-parallel_dispatch steps
# ---------------------------------------------------------------------------

def test_intent_template_forbidden_on_function_step():
    ir = """
version: "0.3"
contracts:
  Out:
    v: {type: string}
functions:
  work:
    mode: infer
    intent: "Produce output"
    input: {}
    output: Out
flows:
  f:
    input: {}
    output: Out
    steps:
      - id: s1
        function: work
        inputs: {}
        intent_template: "some template"
"""
    with pytest.raises(IRSemanticError, match="intent_template"):
        parse_and_validate(ir)


def test_intent_template_forbidden_on_decompose_step():
    ir = """
version: "0.3"
contracts:
  TaskGraph:
    tasks: {type: array}
flows:
  f:
    input: {}
    steps:
      - id: analyze
        type: decompose
        agent: claude
        intent: "Analyze"
        output_contract: TaskGraph
        intent_template: "some template"
"""
    with pytest.raises(IRSemanticError, match="intent_template"):
        parse_and_validate(ir)


# ---------------------------------------------------------------------------
# max_concurrent defaults to 3
# ---------------------------------------------------------------------------

def test_max_concurrent_defaults_to_3():
    ir = _VALID_V03_SPEC.replace(
        "        max_concurrent: 3\n",
        "",
    )
    spec = parse_and_validate(ir)
    execute_step = next(s for s in spec.flows["build"].steps if s.id == "execute")
    assert execute_step.max_concurrent == 3


# ---------------------------------------------------------------------------
# _step_mode handles new types
# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# isolation: "none" validates for parallel_dispatch steps (STRAT-REV Task 1)
# ---------------------------------------------------------------------------

def test_isolation_none_validates():
    """A parallel_dispatch step with isolation: none parses without error."""
    ir = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: none\n",
    )
    spec = parse_and_validate(ir)
    execute_step = next(s for s in spec.flows["build"].steps if s.id == "execute")
    assert execute_step.isolation == "none"


# ---------------------------------------------------------------------------
# _step_mode handles new types
# ---------------------------------------------------------------------------

def test_step_mode_decompose():
    from stratum_mcp.executor import _step_mode
    spec = parse_and_validate(_VALID_V03_SPEC)
    steps = {s.id: s for s in spec.flows["build"].steps}
    assert _step_mode(steps["analyze"]) == "decompose"
    assert _step_mode(steps["execute"]) == "parallel_dispatch"
    assert _step_mode(steps["do_work"]) == "function"


# ---------------------------------------------------------------------------
# T2-F5-DIFF-EXPORT: capture_diff field on parallel_dispatch steps
# ---------------------------------------------------------------------------

def test_parallel_dispatch_capture_diff_accepts_bool():
    """capture_diff: true and capture_diff: false both parse."""
    spec_true = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n        capture_diff: true\n",
    )
    ir = parse_and_validate(spec_true)
    steps = {s.id: s for s in ir.flows["build"].steps}
    assert steps["execute"].capture_diff is True

    spec_false = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n        capture_diff: false\n",
    )
    ir2 = parse_and_validate(spec_false)
    steps2 = {s.id: s for s in ir2.flows["build"].steps}
    assert steps2["execute"].capture_diff is False


def test_parallel_dispatch_capture_diff_omitted_defaults_to_false():
    """Specs without capture_diff parse and the step has capture_diff=False."""
    spec = parse_and_validate(_VALID_V03_SPEC)
    steps = {s.id: s for s in spec.flows["build"].steps}
    assert steps["execute"].capture_diff is False


def test_parallel_dispatch_capture_diff_rejects_non_bool():
    """capture_diff must be a bool — the string 'true' is rejected at parse time.

    The JSON schema layer raises IRValidationError before _build_step runs;
    the error message includes 'boolean' to describe the expected type.
    """
    from stratum_mcp.errors import IRValidationError as _IRValidationError
    spec_bad = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n        capture_diff: \"true\"\n",
    )
    with pytest.raises(_IRValidationError, match="boolean"):
        parse_and_validate(spec_bad)


# ---------------------------------------------------------------------------
# T2-F5-DEFER-ADVANCE: defer_advance field on parallel_dispatch steps
# ---------------------------------------------------------------------------

def test_parallel_dispatch_defer_advance_accepts_bool():
    """defer_advance: true and defer_advance: false both parse."""
    spec_true = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n        defer_advance: true\n",
    )
    ir = parse_and_validate(spec_true)
    steps = {s.id: s for s in ir.flows["build"].steps}
    assert steps["execute"].defer_advance is True

    spec_false = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n        defer_advance: false\n",
    )
    ir2 = parse_and_validate(spec_false)
    steps2 = {s.id: s for s in ir2.flows["build"].steps}
    assert steps2["execute"].defer_advance is False


def test_parallel_dispatch_defer_advance_omitted_defaults_to_false():
    """Specs without defer_advance parse and the step has defer_advance=False."""
    spec = parse_and_validate(_VALID_V03_SPEC)
    steps = {s.id: s for s in spec.flows["build"].steps}
    assert steps["execute"].defer_advance is False


def test_parallel_dispatch_defer_advance_rejects_non_bool():
    """defer_advance must be a bool — the string 'true' is rejected at parse time.

    The JSON schema layer raises IRValidationError before _build_step runs;
    the error message includes 'boolean' to describe the expected type.
    """
    from stratum_mcp.errors import IRValidationError as _IRValidationError
    spec_bad = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n        defer_advance: \"true\"\n",
    )
    with pytest.raises(_IRValidationError, match="boolean"):
        parse_and_validate(spec_bad)


# ---------------------------------------------------------------------------
# COMP-PAR-MERGE-QUEUE: pre_merge_verify field on parallel_dispatch steps
# ---------------------------------------------------------------------------

def test_parallel_dispatch_pre_merge_verify_accepts_literal_list():
    """pre_merge_verify accepts a literal list of command strings."""
    spec_yaml = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n"
        "        pre_merge_verify: [\"pnpm lint\", \"pnpm build\"]\n",
    )
    ir = parse_and_validate(spec_yaml)
    steps = {s.id: s for s in ir.flows["build"].steps}
    assert steps["execute"].pre_merge_verify == ["pnpm lint", "pnpm build"]


def test_parallel_dispatch_pre_merge_verify_accepts_jsonpath_string():
    """pre_merge_verify accepts a JSONPath input reference, stored verbatim at parse."""
    spec_yaml = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n"
        "        pre_merge_verify: \"$.input.pre_merge_gate\"\n",
    )
    ir = parse_and_validate(spec_yaml)
    steps = {s.id: s for s in ir.flows["build"].steps}
    assert steps["execute"].pre_merge_verify == "$.input.pre_merge_gate"


def test_parallel_dispatch_pre_merge_verify_omitted_defaults_to_none():
    """Specs without pre_merge_verify parse and the step has pre_merge_verify=None
    (byte-identical current behavior — no gate)."""
    spec = parse_and_validate(_VALID_V03_SPEC)
    steps = {s.id: s for s in spec.flows["build"].steps}
    assert steps["execute"].pre_merge_verify is None


def test_parallel_dispatch_pre_merge_verify_rejects_scalar_int():
    """pre_merge_verify must be a list-of-strings or a string — a bare int is
    rejected at the JSON schema layer before _build_step runs."""
    from stratum_mcp.errors import IRValidationError as _IRValidationError
    spec_bad = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n        pre_merge_verify: 5\n",
    )
    with pytest.raises(_IRValidationError):
        parse_and_validate(spec_bad)


def test_parallel_dispatch_pre_merge_verify_in_step_fingerprint():
    """A mid-run edit of pre_merge_verify must be tamper-detected: the field is
    included in _step_fingerprint, so two specs differing only in pre_merge_verify
    produce different fingerprints."""
    from stratum_mcp.executor import _step_fingerprint

    with_gate = _VALID_V03_SPEC.replace(
        "        isolation: worktree\n",
        "        isolation: worktree\n"
        "        pre_merge_verify: [\"pnpm lint\"]\n",
    )
    ir_gate = parse_and_validate(with_gate)
    ir_none = parse_and_validate(_VALID_V03_SPEC)
    step_gate = {s.id: s for s in ir_gate.flows["build"].steps}["execute"]
    step_none = {s.id: s for s in ir_none.flows["build"].steps}["execute"]

    fp_gate = _step_fingerprint(step_gate)
    fp_none = _step_fingerprint(step_none)
    assert fp_gate["pre_merge_verify"] == ["pnpm lint"]
    assert fp_none["pre_merge_verify"] is None
    assert fp_gate != fp_none
