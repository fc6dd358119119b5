# scripts/record-0269-validation.py: records how the reference validator of stratum-mcp 0.2.69
# (smartmemory/stratum at 63fc11d) judges every spec of its own Python test suite, into
# test/conformance/recorded/validation-0269.jsonl.
#
# Usage: python3 scripts/record-0269-validation.py [--repo GIT_DIR] [--commit 63fc11d]
#
# The specs are the ones scripts/extract-reference-specs.mjs finds in the reference's tests at that
# revision (Python string literals decoded as Python does, textwrap.dedent applied; literals the
# call site changes with .format / % / + / f-string substitutions cannot be reconstructed and are
# left out). It is run into a scratch directory; every occurrence is recorded, duplicates too, so a
# line's `source` is the exact test file and line. The reference's stratum-mcp/src is exported
# into a scratch directory and imported with the stubs of scripts/record-v03-scenarios.py
# (FastMCP, claude_agent_sdk, stratum.judge.sandbox); the body of `stratum_validate(spec)` is run
# in process. Each line: {name, source, yaml, reference} where reference is the tool's result
# {valid, errors:[...]} (at most one error), or {valid:false, uncaught:"<type>: <message>"} where
# the reference raised something other than its IR errors.
from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
OUT = REPO_ROOT / "test" / "conformance" / "recorded" / "validation-0269.jsonl"


def load_v03_helpers():
    """prepare_reference from the 0.3 scenario recorder (same export and stubs)."""
    spec = importlib.util.spec_from_file_location("record_v03", REPO_ROOT / "scripts" / "record-v03-scenarios.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.prepare_reference


def extract(repo: str, commit: str, scratch: Path) -> list[dict]:
    out = scratch / "specs"
    subprocess.run(
        ["node", str(REPO_ROOT / "scripts" / "extract-reference-specs.mjs"), repo, commit, "--out", str(out)],
        check=True,
        capture_output=True,
    )
    manifest = json.loads((out / "manifest.json").read_text())
    cases = []
    for entry in manifest["files"]:
        if entry["kind"] != "test":
            continue
        text = (out / entry["file"]).read_text()
        base = entry["file"].removeprefix("test/").removesuffix(".stratum.yaml")
        places = [{"source": entry["source"], "line": entry["line"]}] + [
            d for d in entry["duplicates"] if d["kind"] == "test"
        ]
        for i, place in enumerate(places):
            name = base if i == 0 else f"{base}~{i + 1}"
            cases.append({"name": name, "source": f"{place['source']}:{place['line']}", "yaml": text})
    return cases, manifest["revision"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repo", default="/work/.mirror/smartmemory+stratum/repo")
    parser.add_argument("--commit", default="63fc11d")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        cases, revision = extract(args.repo, args.commit, scratch)
        ref = scratch / "ref"
        ref.mkdir()
        load_v03_helpers()(args.repo, args.commit, ref)
        # server.stratum_validate (server.py:101-106) is exactly this; server.py itself imports
        # connectors needing more of claude_agent_sdk than the stubs give, so its body is inlined.
        from stratum_mcp.errors import (  # noqa: E402  (imported from the export)
            IRParseError,
            IRSemanticError,
            IRValidationError,
            exception_to_mcp_error,
        )
        from stratum_mcp.spec import parse_and_validate  # noqa: E402

        def stratum_validate(spec: str) -> dict:
            try:
                parse_and_validate(spec)
                return {"valid": True, "errors": []}
            except (IRParseError, IRValidationError, IRSemanticError) as exc:
                return {"valid": False, "errors": [exception_to_mcp_error(exc)]}

        lines = []
        for case in cases:
            try:
                result = stratum_validate(case["yaml"])
            except Exception as exc:  # noqa: BLE001  (recorded, not hidden)
                result = {"valid": False, "errors": [], "uncaught": f"{type(exc).__name__}: {exc}"}
            lines.append(json.dumps({**case, "reference": result}, ensure_ascii=False, sort_keys=False))
        header = {
            "header": True,
            "reference": "smartmemory/stratum",
            "revision": revision,
            "generated_by": "scripts/record-0269-validation.py",
            "cases": len(lines),
        }
        OUT.write_text("\n".join([json.dumps(header)] + lines) + "\n")
        valid = sum(1 for l in lines if json.loads(l)["reference"]["valid"])
        print(f"revision {revision}: {len(lines)} cases, {valid} valid, {len(lines) - valid} invalid -> {OUT}")


if __name__ == "__main__":
    main()
