#!/usr/bin/env bash
# A newcomer's first hour, as the README tells it, from the packed tarball in an empty project:
# install as a devDependency (offline), `init`, `check`, `check --deep`, `fuzz`, `install` for
# Claude Code (the MCP server started exactly as the written `.mcp.json` says, with no
# node_modules/.bin on PATH), pre-commit with the README's local hook and `pre-commit install`
# (a real commit refused, then accepted), `ui` stopped with `kill <pid>`, and the messages a
# newcomer meets (`explain` of an unknown code, an unclosed quote, the installed docs).
# Each step fails the script with what a user would have seen.
#
#   test/walkthrough/newcomer.sh [TARBALL]     (without one: `npm pack` of this checkout)
#
# scripts/ci-distribution.sh runs it on the tarball it made. Needs node, npm, git, pre-commit and
# curl. Nothing is kept: the project, HOME and PRE_COMMIT_HOME are temporary.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$(mktemp -d)"
ui_pid=
cleanup() {
  [ -n "$ui_pid" ] && kill -KILL "$ui_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n--- %s\n' "$*"; }
fail() {
  printf 'WALKTHROUGH FAILED: %s\n' "$*" >&2
  exit 1
}
# expect_exit WANT COMMAND...: the command's output goes to $work/out (and the log); fails unless
# it exits with WANT.
expect_exit() {
  local want=$1 got=0
  shift
  "$@" >"$work/out" 2>&1 || got=$?
  cat "$work/out"
  [ "$got" -eq "$want" ] || fail "'$*' exited with $got, expected $want"
}
has() { grep -Fq -- "$1" "$work/out" || fail "$2 (looked for: $1)"; }

tarball=${1:-}
if [ -z "$tarball" ]; then
  tarball="$work/$(cd "$repo" && npm pack --pack-destination "$work" 2>/dev/null)"
fi
[ -f "$tarball" ] || fail "no tarball at $tarball"

project="$work/project"
mkdir "$project"
cd "$project"
export HOME="$work/home" STRATUM_HOME="$work/home/.stratum" PRE_COMMIT_HOME="$work/pre-commit-home"
mkdir -p "$HOME"
git init -q
git config user.email newcomer@example.com
git config user.name Newcomer
echo '{"name": "newcomer-project", "private": true}' >package.json

step "npm install --save-dev (offline)"
expect_exit 0 npm install --save-dev --offline --no-audit --no-fund --loglevel=error "$tarball"
grep -q '"stratumc"' package.json || fail "stratumc is not in package.json's devDependencies"

step "npx stratumc init"
expect_exit 0 npx --no-install stratumc init
for f in plan.stratum.yaml .stratum/spec.schema.json .pre-commit-config.yaml; do
  [ -f "$f" ] || fail "init did not write $f"
done
grep -q 'stratumc-check' .pre-commit-config.yaml || fail "init's pre-commit entry has no stratumc-check hook"

step "npx stratumc check (the starter spec is clean)"
expect_exit 0 npx --no-install stratumc check
has "0 error(s), 0 warning(s)" "check of the starter spec is not clean"

step "npx stratumc check --deep (our own fuzzer finds nothing in our own starter)"
expect_exit 0 npx --no-install stratumc check --deep
has "0 error(s), 0 warning(s)" "check --deep of the starter spec is not clean"

step "npx stratumc fuzz plan.stratum.yaml"
expect_exit 0 npx --no-install stratumc fuzz plan.stratum.yaml

step "npx stratumc install (Claude Code): .mcp.json starts the server without PATH help"
expect_exit 0 npx --no-install stratumc install
has ".mcp.json" "install does not name .mcp.json"
has "install record" "install does not name the install record it writes"
command=$(node -e 'const c=require("./.mcp.json").mcpServers.stratum; console.log(JSON.stringify([c.command, ...(c.args ?? [])]))')
echo "written command: $command"
[ "$command" = '["npx","--no-install","stratum-mcp"]' ] || fail ".mcp.json's command is $command"
# Claude Code starts the command in the project with its own PATH, without node_modules/.bin.
clean_path=$(echo "$PATH" | tr ':' '\n' | grep -v 'node_modules/\.bin' | paste -sd: -)
answer=$(
  printf '%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"walkthrough","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' |
    PATH="$clean_path" timeout 60 npx --no-install stratum-mcp 2>"$work/mcp.err" || true
)
echo "$answer" | grep -q '"stratum_plan"' || {
  cat "$work/mcp.err" >&2
  fail "the server .mcp.json names did not list its tools"
}
echo "the server .mcp.json names listed $(echo "$answer" | grep -o '"name":"stratum_[a-z_]*"' | sort -u | wc -l) tools"

step "pre-commit: the README's local hook, pre-commit install, a real commit"
cat >.pre-commit-config.yaml <<'EOF'
repos:
  - repo: local
    hooks:
      - id: stratumc-check
        name: stratumc check
        entry: npx --no-install stratumc check
        language: system
        files: \.stratum\.ya?ml$
EOF
expect_exit 0 pre-commit install
printf 'node_modules/\n' >.gitignore
cp "$repo/examples/broken/unknown-step-id.stratum.yaml" broken.stratum.yaml
git add -A
expect_exit 1 git commit -q -m "a broken spec"
grep -Eq '^broken\.stratum\.yaml:[0-9]+:[0-9]+: error: ' "$work/out" || fail "the refused commit shows no located error"
git rm -q --cached broken.stratum.yaml
rm broken.stratum.yaml
expect_exit 0 git commit -q -m "the starter spec"

step "messages: explain of an unknown code, an unclosed quote"
expect_exit 2 npx --no-install stratumc explain NOT-A-CODE
has "explain --list" "explain of an unknown code does not point to explain --list"
printf 'version: "0.2"\nflows:\n  main:\n    steps:\n      - id: "draft\n        agent: x\n' >quote.stratum.yaml
expect_exit 1 npx --no-install stratumc check quote.stratum.yaml
has "quote.stratum.yaml:5:" "the unclosed quote is not reported on the line it opened"
rm quote.stratum.yaml
expect_exit 0 npx --no-install stratumc explain SPEC-STEP-MODE
has "node_modules/stratumc/docs/reference/rules.md" "explain does not name the installed docs"

step "stratumc ui, then kill <pid>"
node_modules/.bin/stratumc ui --port 0 >"$work/ui.out" 2>"$work/ui.err" &
ui_pid=$!
for _ in $(seq 1 200); do grep -q 'http://' "$work/ui.out" && break; sleep 0.1; done
address=$(grep -o 'http://[^ ]*' "$work/ui.out" | head -1)
[ -n "$address" ] || fail "stratumc ui printed no address: $(cat "$work/ui.err")"
echo "ui at ${address%%\?*}"
curl -sf -o /dev/null "$address" || fail "the page at the printed address did not answer"
port=$(echo "$address" | sed -E 's|http://[^:]+:([0-9]+)/.*|\1|')
kill "$ui_pid"
for _ in $(seq 1 100); do kill -0 "$ui_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$ui_pid" 2>/dev/null && fail "stratumc ui is still running 10 s after kill $ui_pid"
wait "$ui_pid" 2>/dev/null || true
ui_pid=
curl -s -o /dev/null "http://127.0.0.1:$port/" && fail "port $port still answers after kill"

printf '\nWALKTHROUGH PASSED\n'
