# scripts/record-v0269-budget.py: records the run-budget scenarios of stratum-mcp 0.2.69
# (smartmemory/stratum at 63fc11d) into test/conformance/recorded/scenarios-0269/budget_*.json by
# running the reference in this process, on the consumer path (stratum_plan, stratum_step_done
# with its optional `usage` argument, stratum_resume, stratum_audit).
#
# Usage: python3 scripts/record-v0269-budget.py [--repo GIT_DIR] [--commit 63fc11d]
#
# It reuses record-v03-scenarios.py (export of stratum-mcp/src, stubs, HOME in a scratch directory,
# normalisation of test/conformance/recorded/README.md §2.2). At 63fc11d the connectors import more
# names from claude_agent_sdk, so those two stubs answer any name with an empty class. The pricing
# table is memoised per process: each scenario clears that memo and sets or unsets
# STRATUM_MODEL_PRICING_JSON first. Besides the responses, each scenario records whether the
# reference's flow file (~/.stratum/flows/<id>.json) exists after the last action, and its
# `terminal_status` and `budget_state` when it does.
from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = REPO_ROOT / "test" / "conformance" / "recorded" / "scenarios-0269"

_spec = importlib.util.spec_from_file_location("record_v03", REPO_ROOT / "scripts" / "record-v03-scenarios.py")
assert _spec is not None and _spec.loader is not None
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)

ANY_NAME = """
def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return type(name, (Exception,), {"__init__": lambda self, *a, **k: None})
"""
rec.STUBS["claude_agent_sdk/types.py"] = ANY_NAME
rec.STUBS["claude_agent_sdk/__init__.py"] = ANY_NAME + "\nasync def query(*a, **k):\n    if False:\n        yield None\n"


def spec(budget: str, steps: int = 3, retries: int = 2, ensure: bool = False) -> str:
    """A flow of `steps` infer steps s1..sN (output {n: integer}) under `budget` (a flow mapping)."""
    lines = [
        'version: "0.3"',
        "contracts:",
        "  Out:",
        "    n: {type: integer}",
        "functions:",
        "  work:",
        "    mode: infer",
        '    intent: "Work"',
        "    input: {}",
        "    output: Out",
        f"    retries: {retries}",
    ]
    if ensure:
        lines += ["    ensure:", '      - "result.n > 0"']
    lines += ["flows:", "  main:", "    input: {}"]
    if budget:
        lines.append(f"    budget: {budget}")
    lines.append("    steps:")
    for i in range(1, steps + 1):
        lines += [f"      - id: s{i}", "        function: work", "        inputs: {}"]
        if i > 1:
            lines.append(f"        depends_on: [s{i - 1}]")
    return "\n".join(lines) + "\n"


def done(step_id: str, n: int = 1, usage=None) -> dict:
    action = {"op": "step_done", "step_id": step_id, "result": {"n": n}}
    if usage is not None:
        action["usage"] = usage
    return action


SONNET = "claude-sonnet-4-6"  # 3 USD input, 15 USD output per million tokens

SCENARIOS: list[dict] = [
    {
        "name": "budget_usd_priced_usage_exhausts",
        "description": "usd 0.02; each step reports 1000 input and 1000 output tokens of claude-sonnet-4-6 "
        "($0.018). s1 stays under, s2 crosses: budget_exhausted with output, trace and budget_state "
        "instead of dispatching s3; resume and audit then answer budget_exhausted",
        "spec": spec("{usd: 0.02}"),
        "actions": [
            done("s1", usage={"input_tokens": 1000, "output_tokens": 1000, "model": SONNET}),
            done("s2", usage={"input_tokens": 1000, "output_tokens": 1000, "model": SONNET}),
            {"op": "resume"},
            {"op": "audit"},
        ],
    },
    {
        "name": "budget_max_tokens_prepriced",
        "description": "max_tokens 100; pre-priced usage {tokens, dollars} wins over token counts; "
        "exactly reaching the cap (>=) exhausts",
        "spec": spec("{max_tokens: 100}"),
        "actions": [
            done("s1", usage={"tokens": 60, "dollars": 0.5, "input_tokens": 999999, "model": SONNET}),
            done("s2", usage={"tokens": 40}),
        ],
    },
    {
        "name": "budget_last_step_exhausts",
        "description": "crossing the budget on the last step answers budget_exhausted, not complete",
        "spec": spec("{max_tokens: 10}", steps=1),
        "actions": [done("s1", usage={"tokens": 10}), {"op": "audit"}],
    },
    {
        "name": "budget_usage_ignored_without_budget",
        "description": "a flow with no budget ignores usage (no ledger, budget_state null) and completes",
        "spec": spec(""),
        "actions": [done("s1", usage={"tokens": 10**9, "dollars": 10**6}), done("s2"), done("s3")],
    },
    {
        "name": "budget_retry_attempts_charged",
        "description": "usage on an attempt that fails its ensure is charged too: the second failing "
        "attempt crosses max_tokens and the flow halts before its retries run out",
        "spec": spec("{max_tokens: 100}", ensure=True, retries=5),
        "actions": [
            done("s1", n=0, usage={"tokens": 60}),
            done("s1", n=0, usage={"tokens": 60}),
            done("s1", n=1),
        ],
    },
    {
        "name": "budget_unpriced_model_free",
        "description": "a model missing from the pricing table costs $0 (tokens still count, a warning is "
        "logged once); an /effort suffix is stripped before the look-up, so gpt-5.4/high is priced",
        "spec": spec("{usd: 0.001, max_tokens: 100000}"),
        "actions": [
            done("s1", usage={"input_tokens": 5000, "output_tokens": 5000, "model": "some-unknown-model"}),
            done("s2", usage={"input_tokens": 1000, "output_tokens": 0, "model": "gpt-5.4/high"}),
        ],
    },
    {
        "name": "budget_pricing_env_override",
        "description": "STRATUM_MODEL_PRICING_JSON adds a model (an entry without numeric input/output is "
        "skipped): 1000 output tokens at 1000 USD per million cross usd 0.5",
        "env": {"STRATUM_MODEL_PRICING_JSON": json.dumps({"my-model": {"input": 1, "output": 1000}, "bad": {"input": "x"}})},
        "spec": spec("{usd: 0.5}"),
        "actions": [done("s1", usage={"input_tokens": 0, "output_tokens": 1000, "model": "my-model"})],
    },
    {
        "name": "budget_bad_usage_values",
        "description": "negative, non-numeric and NaN usage values count as 0 and never credit the ledger",
        "spec": spec("{max_tokens: 100, usd: 1}"),
        "actions": [
            done("s1", usage={"tokens": -500, "dollars": "NaN"}),
            done("s2", usage={"input_tokens": "many", "output_tokens": -3, "model": 7}),
            {"op": "audit"},
        ],
    },
    {
        "name": "budget_dispatches_not_charged_by_consumer",
        "description": "max_agent_dispatches 1: the consumer path charges no dispatches, so the flow "
        "completes; usage then charges only tokens and dollars",
        "spec": spec("{max_agent_dispatches: 1}"),
        "actions": [done("s1", usage={"tokens": 5}), done("s2"), done("s3")],
    },
    {
        "name": "budget_stale_step_uncharged",
        "description": "step_done for a step that is not current is refused before usage is charged",
        "spec": spec("{max_tokens: 100}"),
        "actions": [done("s3", usage={"tokens": 1000}), done("s1", usage={"tokens": 1}), {"op": "audit"}],
    },
]


def flow_file(flow_id: str | None) -> dict:
    if not flow_id:
        return {"exists": False}
    path = Path(os.environ["HOME"]) / ".stratum" / "flows" / f"{flow_id}.json"
    if not path.exists():
        return {"exists": False}
    data = json.loads(path.read_text())
    return {
        "exists": True,
        "terminal_status": data.get("terminal_status"),
        "budget_state": data.get("budget_state"),
        "current_idx": data.get("current_idx"),
    }


async def run_scenario(server, executor, pricing, scenario: dict, cwd: str) -> dict:
    executor._flows.clear()
    os.environ.pop("STRATUM_MODEL_PRICING_JSON", None)
    os.environ.update(scenario.get("env", {}))
    pricing._table_cache = None
    text = scenario["spec"]
    raw = [await server.stratum_plan(spec=text, flow="main", inputs={}, ctx=None)]
    root = raw[0].get("flow_id")
    for action in scenario["actions"]:
        copy = json.loads(json.dumps(action))
        op = action["op"]
        if op == "step_done":
            response = await server.stratum_step_done(
                root, action["step_id"], copy["result"], ctx=None, usage=copy.get("usage")
            )
        elif op == "resume":
            response = await server.stratum_resume(root, ctx=None)
        elif op == "audit":
            response = await server.stratum_audit(root, ctx=None)
        else:
            raise ValueError(op)
        raw.append(response)
    file_after = flow_file(root)
    normalise = rec.Normaliser(cwd)
    seen: list[str] = []
    rec.collect_flow_ids(raw, seen)
    for fid in seen:
        normalise.learn(fid)
    ops = ["plan"] + [a["op"] for a in scenario["actions"]]
    out = {
        "name": scenario["name"],
        "description": scenario["description"],
        "spec": text,
        "flow": "main",
        "inputs": {},
        "actions": scenario["actions"],
        "reference": [{"op": op, "response": normalise(r)} for op, r in zip(ops, raw)],
        "flow_file_after": normalise(file_after),
    }
    if scenario.get("env"):
        out["env"] = scenario["env"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", default="/work/.mirror/smartmemory+stratum/repo")
    parser.add_argument("--commit", default="63fc11d")
    args = parser.parse_args()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="stratum-ref-0269-") as scratch:
        rec.prepare_reference(args.repo, args.commit, Path(scratch))
        cwd = os.path.realpath(OUT_DIR)
        os.chdir(cwd)
        import stratum_mcp.executor as executor  # noqa: E402 (after the path set-up)
        import stratum_mcp.pricing as pricing  # noqa: E402
        import stratum_mcp.server as server  # noqa: E402

        for scenario in SCENARIOS:
            recorded = asyncio.run(run_scenario(server, executor, pricing, scenario, cwd))
            path = OUT_DIR / f"{scenario['name']}.json"
            path.write_text(json.dumps(recorded, indent=2, ensure_ascii=False) + "\n")
            statuses = [(r["response"] or {}).get("status") or (r["response"] or {}).get("error_type") for r in recorded["reference"]]
            print(f"{path.name}: {statuses} file={recorded['flow_file_after'].get('exists')}")


if __name__ == "__main__":
    main()
