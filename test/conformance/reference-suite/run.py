#!/usr/bin/env python3
"""Run the reference's portable tests against the built stratumc server (README.md beside this file).

    /usr/bin/python3 test/conformance/reference-suite/run.py RESULTS.json [TEST_ID ...]

Runs the ids of candidates.json (or the ones given) with Debian's pytest, the shim first on the
import path, in a fresh temporary working directory; writes one outcome per test to RESULTS.json.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def main() -> int:
    results = os.path.abspath(sys.argv[1])
    ids = sys.argv[2:]
    if not ids:
        with open(os.path.join(HERE, "candidates.json")) as f:
            ids = json.load(f)["tests"]
    vendored = os.path.join(HERE, "vendored")
    # No credentials reach the tests: the reference's live-agent tests then skip themselves, and a
    # run never spends money or depends on a network.
    inherited = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))}
    env = {
        **inherited,
        "PYTHONPATH": os.path.join(HERE, "shim"),
        "REFSUITE_SERVER": os.path.join(REPO, "bin", "stratum-mcp.cjs"),
        "REFSUITE_RESULTS": results,
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    with tempfile.TemporaryDirectory(prefix="reference-suite-") as cwd:
        command = [
            sys.executable, "-m", "pytest",
            "-p", "reference_suite_plugin",
            "-p", "no:cacheprovider",
            "-o", "asyncio_mode=auto",
            "--import-mode=importlib",
            "--continue-on-collection-errors",
            "--rootdir", vendored,
            # The tests' temporary directories inside the server's working directory: our server
            # keeps `workflows_dir` and `project_dir` inside the workspace it was started in.
            "--basetemp", os.path.join(cwd, "pytest-tmp"),
            "-q", "--no-header", "-rN",
            *[os.path.join(vendored, i) for i in ids],
        ]
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    # pytest's own exit status says only that some test failed; the outcomes file is the result.
    if not os.path.exists(results):
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
