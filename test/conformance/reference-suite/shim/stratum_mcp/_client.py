"""A minimal MCP client over stdio for the built `stratum-mcp` (newline-delimited JSON-RPC).

One server process for the session, started on the first tool call and started again when the
environment a test set differs from the one it runs with (a pricing table, a cache switch are read
at start, as the reference reads them per call); `restart` kills it (the store stays), which is what
a test means by emptying the reference's in-memory flow table in the middle of its run.
"""
import json
import os
import select
import subprocess
import time

CALL_TIMEOUT_S = 120.0


def _test_environment() -> dict[str, str]:
    """The environment a test set up, without pytest's own per-phase variable."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}


class ToolError(Exception):
    """The server answered a tool call with `isError` (the reference raised inside the tool)."""


class Server:
    def __init__(self, binary: str, home: str) -> None:
        self._binary = binary
        self._home = home
        self._proc: subprocess.Popen[bytes] | None = None
        self._env: dict[str, str] = {}
        self._next_id = 0
        self.stderr_chunks: list[bytes] = []

    def _start(self) -> subprocess.Popen[bytes]:
        # The test's own environment (a pricing table, a cache switch) reaches the server as it
        # reaches the reference; the store is the test's own.
        self._env = _test_environment()
        env = {**self._env, "STRATUM_HOME": self._home}
        proc = subprocess.Popen(
            ["node", self._binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=os.getcwd(),
        )
        self._proc = proc
        self._request("initialize", {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "reference-suite-adapter", "version": "1"},
        })
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return proc

    def _send(self, message: dict) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        self._proc.stdin.write((json.dumps(message) + "\n").encode())
        self._proc.stdin.flush()

    def _request(self, method: str, params: dict) -> dict:
        self._next_id += 1
        ident = self._next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        assert self._proc is not None and self._proc.stdout is not None
        deadline = time.monotonic() + CALL_TIMEOUT_S
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._proc.stdout], [], [], left)[0]:
                raise TimeoutError(f"{method}: no answer in {CALL_TIMEOUT_S} s")
            line = self._proc.stdout.readline()
            if not line:
                raise ConnectionError(f"{method}: the server closed its output ({self._proc.poll()})")
            message = json.loads(line)
            if message.get("id") != ident:
                continue  # a notification or a server request the adapter does not serve
            if "error" in message:
                raise ToolError(json.dumps(message["error"]))
            return message["result"]

    def call(self, tool: str, arguments: dict):
        if self._proc is not None and self._env != _test_environment():
            self.stop()
        if self._proc is None or self._proc.poll() is not None:
            self._start()
        result = self._request("tools/call", {"name": tool, "arguments": arguments})
        text = "".join(c.get("text", "") for c in result.get("content", []) if c.get("type") == "text")
        if result.get("isError"):
            raise ToolError(text)
        # The text keeps Python's number kinds (`1.0` stays a float); structuredContent cannot.
        return json.loads(text) if text else result.get("structuredContent")

    def restart(self) -> None:
        self.stop(kill=True)

    def stop(self, kill: bool = False) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if kill:
            proc.kill()
        else:
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        assert proc.stderr is not None
        self.stderr_chunks.append(proc.stderr.read())
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


class _Current:
    server: Server | None = None
    in_body = False


CURRENT = _Current()


def current() -> Server:
    if CURRENT.server is None:
        raise RuntimeError("no server: the adapter's plugin sets one up for each test")
    return CURRENT.server
