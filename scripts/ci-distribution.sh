#!/usr/bin/env bash
# Distribution proofs, run by .ci/run from a checkout that has been `npm install`ed:
#   1. `npm pack` prints nothing but the tarball name on stdout (the pre-commit framework reads it);
#   2. the tarball installs into an empty directory with no other package and no network, and the
#      installed `stratumc check` passes the examples (exit 0) and fails examples/broken (exit 1);
#      the docs are in it, and the installed `explain` and `--help` name the installed copy;
#   3. the pre-commit framework installs the `stratumc-check` hook from this repository at HEAD
#      (committed files only) and the hook fails a broken spec with a located error (exit 1) and
#      passes a clean one (exit 0);
#   4. the local hook the README documents (`repo: local`, `language: system`,
#      `npx --no-install stratumc check`) does the same over the installed tarball, offline;
#   5. a newcomer's walk through the README from the tarball (test/walkthrough/newcomer.sh).
# Needs node, npm, git and pre-commit (https://pre-commit.com; Debian's `pre-commit` or pip).
# Nothing is kept: every directory (npm prefix, PRE_COMMIT_HOME) is temporary.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

section() { printf '\n=== %s ===\n' "$*"; }
fail() {
  printf 'FAILED: %s\n' "$*" >&2
  exit 1
}
# expect_exit WANT COMMAND...: runs the command (its output goes to the log), fails unless it
# exits with WANT.
expect_exit() {
  local want=$1 got=0
  shift
  "$@" || got=$?
  [ "$got" -eq "$want" ] || fail "'$*' exited with $got, expected $want"
  printf -- '--> exit %s, as expected\n' "$got"
}
kib() { du -sk "$1" | cut -f1; }

examples=("$repo"/examples/*.stratum.yaml)
[ "${#examples[@]}" -gt 0 ] && [ -f "${examples[0]}" ] || fail "no examples/*.stratum.yaml in $repo"

section "npm pack (stdout must be the tarball name alone)"
start=$SECONDS
# `prepare` rebuilds the bundles; npm's own report goes to stderr, kept for the log.
tarball="$(cd "$repo" && npm pack --pack-destination "$work" 2>"$work/pack.log")" || {
  cat "$work/pack.log" >&2
  fail "npm pack"
}
printf 'npm pack stdout: %q\n' "$tarball"
[[ "$tarball" =~ ^stratumc-[0-9][^[:space:]/]*\.tgz$ ]] || fail "npm pack printed more than the tarball name"
[ -f "$work/$tarball" ] || fail "$work/$tarball does not exist"
files="$(tar -tzf "$work/$tarball")"
echo "$files" | sed 's/^package\//  /'
printf 'tarball: %s, %s bytes (%s KiB), %s files, %s s\n' "$tarball" "$(wc -c <"$work/$tarball")" \
  "$(kib "$work/$tarball")" "$(echo "$files" | wc -l)" "$((SECONDS - start))"
grep -E 'unpacked size|total files' "$work/pack.log" | sed 's/^npm notice /npm: /'
# Help points to the docs installed with the package, so they must be in it.
for doc in docs/README.md docs/reference/rules.md docs/reference/format.md docs/guides/team-store.md; do
  echo "$files" | grep -qx "package/$doc" || fail "$doc is not in the tarball"
done
printf 'docs in the tarball: %s files\n' "$(echo "$files" | grep -c '^package/docs/')"

section "install the tarball into an empty directory (offline: nothing else is fetched)"
start=$SECONDS
mkdir "$work/install"
cd "$work/install"
echo '{"private": true}' >package.json
npm install --offline --no-audit --no-fund --loglevel=error "$work/$tarball"
# Every package installed, the project itself excluded: stratumc and nothing else.
packages="$(npm ls --all --parseable | tail -n +2)"
echo "$packages" | sed "s|^$work/install/|  |"
count="$(echo "$packages" | grep -c .)"
printf 'installed packages: %s; node_modules: %s KiB (of which the startup snapshot built by postinstall: %s KiB); %s s\n' \
  "$count" "$(kib node_modules)" "$(du -ck node_modules/stratumc/dist/*.blob 2>/dev/null | tail -1 | cut -f1)" \
  "$((SECONDS - start))"
[ "$count" -eq 1 ] || fail "installing the tarball pulled $((count - 1)) other package(s)"

section "installed stratumc explain and --help name the installed docs"
installed_docs="$work/install/node_modules/stratumc/docs"
"$work/install/node_modules/.bin/stratumc" explain SPEC-STEP-MODE | tee "$work/explain.log" | tail -n 2
grep -Fq "node_modules/stratumc/docs/reference/rules.md (section SPEC-STEP-MODE), installed with stratumc" \
  "$work/explain.log" || fail "explain does not name the installed docs"
[ -f "$installed_docs/reference/rules.md" ] || fail "$installed_docs/reference/rules.md was not installed"
"$work/install/node_modules/.bin/stratumc" --help | grep -Fq "node_modules/stratumc/docs/README.md, installed with stratumc" ||
  fail "--help does not name the installed docs"

section "installed stratumc check on the examples (exit 0)"
cd "$repo"
expect_exit 0 "$work/install/node_modules/.bin/stratumc" check examples/*.stratum.yaml

section "installed stratumc check on examples/broken (exit 1)"
expect_exit 1 "$work/install/node_modules/.bin/stratumc" check examples/broken >"$work/broken.log"
tail -n 1 "$work/broken.log"

section "pre-commit: install the stratumc-check hook from this repository at HEAD"
command -v pre-commit >/dev/null || fail "pre-commit is not installed (apt-get install pre-commit, or pip install pre-commit)"
pre-commit --version
rev="$(git -C "$repo" rev-parse HEAD)"
project="$work/project"
mkdir "$project"
cd "$project"
git init -q
cat >.pre-commit-config.yaml <<EOF
repos:
  - repo: $repo
    rev: $rev
    hooks:
      - id: stratumc-check
EOF
cat .pre-commit-config.yaml
cp "$repo/examples/broken/unknown-step-id.stratum.yaml" broken.stratum.yaml
cp "$repo/examples/code-review-gate.stratum.yaml" clean.stratum.yaml
git add -A
export PRE_COMMIT_HOME="$work/pre-commit-home"
start=$SECONDS
pre-commit install-hooks
printf 'hook environment installed in %s s\n' "$((SECONDS - start))"

section "pre-commit run on a broken spec (exit 1, located error)"
expect_exit 1 pre-commit run --color never --files broken.stratum.yaml | tee "$work/hook-broken.log"
grep -Eq '^broken\.stratum\.yaml:[0-9]+:[0-9]+: error: ' "$work/hook-broken.log" ||
  fail "the hook's output has no located error (file:line:col: error: ...)"

section "pre-commit run on a clean spec (exit 0)"
expect_exit 0 pre-commit run --color never --files clean.stratum.yaml

section "pre-commit: the local hook of the README (repo: local, language: system) over the installed tarball"
cd "$work/install"
git init -q
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
cp "$repo/examples/broken/unknown-step-id.stratum.yaml" broken.stratum.yaml
cp "$repo/examples/code-review-gate.stratum.yaml" clean.stratum.yaml
git add broken.stratum.yaml clean.stratum.yaml .pre-commit-config.yaml
expect_exit 1 pre-commit run --color never --files broken.stratum.yaml | tee "$work/local-broken.log"
grep -Eq '^broken\.stratum\.yaml:[0-9]+:[0-9]+: error: ' "$work/local-broken.log" ||
  fail "the local hook's output has no located error (file:line:col: error: ...)"
expect_exit 0 pre-commit run --color never --files clean.stratum.yaml

section "a newcomer's walk through the README, from the tarball (test/walkthrough/newcomer.sh)"
start=$SECONDS
bash "$repo/test/walkthrough/newcomer.sh" "$work/$tarball"
printf 'walkthrough: %s s\n' "$((SECONDS - start))"

section "distribution: all proofs passed"
