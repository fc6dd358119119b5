"""pytest plugin of the adapter: the server for the session, and one outcome per test.

Outcomes (written as JSON to $REFSUITE_RESULTS at the end of the session):
  passed / failed / skipped, or not_portable when the test used a name of the reference that is
  not one of its MCP tools (listed in `touched`), whatever else happened.
"""
import json
import os

import pytest

from stratum_mcp import _client
from stratum_mcp._not_portable import STATE

_RESULTS: dict[str, dict] = {}


@pytest.fixture(autouse=True, scope="session")
def _stratumc_server(tmp_path_factory):
    home = tmp_path_factory.mktemp("stratum-home")
    server = _client.Server(os.environ["REFSUITE_SERVER"], str(home))
    _client.CURRENT.server = server
    yield server
    server.stop()
    _client.CURRENT.server = None


def pytest_runtest_logstart(nodeid, location):
    STATE.touched.clear()
    _RESULTS[nodeid] = {"outcome": "passed"}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    # Emptying the flow table restarts the server only inside a test's body: there it stands for
    # a server restart the test then observes; in a fixture it only isolated tests from each other.
    _client.CURRENT.in_body = True
    try:
        yield
    finally:
        _client.CURRENT.in_body = False


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    entry = _RESULTS.setdefault(item.nodeid, {"outcome": "passed"})
    if report.failed and entry["outcome"] != "failed":
        entry["outcome"] = "failed"
        entry["message"] = str(report.longrepr)[-3000:]
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"
        longrepr = report.longrepr
        entry["message"] = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    if report.when == "teardown" and STATE.touched:
        entry["outcome"] = "not_portable"
        entry["touched"] = sorted(set(STATE.touched))[:10]
        entry.pop("message", None)


def pytest_collectreport(report):
    if report.failed:
        _RESULTS[f"{report.nodeid}::<collect>"] = {
            "outcome": "not_portable" if "NotPortableError" in str(report.longrepr) else "failed",
            "message": str(report.longrepr)[-3000:],
        }


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("REFSUITE_RESULTS")
    if path:
        with open(path, "w") as f:
            json.dump(_RESULTS, f, indent=1, sort_keys=True)
