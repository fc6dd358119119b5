#!/bin/sh
":" /*
# This file is both a shell script and CommonJS. Run as a program (npx, pre-commit,
# node_modules/.bin), /bin/sh reads these lines (the line above is the `:` builtin, which starts no
# process); run as `node bin/stratumc.cjs`, node skips the shebang and they are one comment.
#
# When the build left a V8 startup snapshot (dist/stratumc.blob, made by scripts/build.mjs for one
# node binary) and it is usable here -- the `node` on PATH is the binary that built it, the blob
# is newer than that binary, and NODE_OPTIONS is empty (V8 flags must match the build) -- node
# starts from the snapshot and skips loading and initialising the bundle (docs/design/performance.md).
# Exit status 14 is node refusing a snapshot before running anything: the stale blob is removed
# and the plain bundle runs. STRATUMC_NO_SNAPSHOT=1 forces the plain bundle.
# `check` and `validate` (without --deep, and as stratumc) start from dist/stratumc-check.blob, a
# smaller snapshot with only those two commands, when the build made it (cli/check-commands.ts);
# `check --deep` and `fuzz` from dist/stratumc-explore.blob, the checker and the fuzzer without the
# other commands (cli/explore-commands.ts).
s=$0
case $s in *"/"*) ;; *) s=./$s ;; esac
while [ -h "$s" ]; do
  l=$(readlink "$s")
  case $l in /*) s=$l ;; *) s=${s%/*}/$l ;; esac
done
d=${s%/*}/../dist
n=
[ -f "$d/stratumc.blob.nodepath" ] && read -r n <"$d/stratumc.blob.nodepath"
# `stratumc serve` is the MCP server: two malloc arenas keep its memory flat over weeks, as
# bin/stratum-mcp.cjs explains; a value the caller set wins.
[ "${STRATUMC_PROG:-stratumc}/$1" = stratumc/serve ] && { MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}; export MALLOC_ARENA_MAX; }
b=$d/stratumc.blob
e=$d/stratumc-explore.blob
case ${STRATUMC_PROG:-stratumc}/$1 in
  stratumc/check | stratumc/validate)
    [ -f "$d/stratumc-check.blob" ] && b=$d/stratumc-check.blob
    for a; do [ "$a" = --deep ] && { b=$d/stratumc.blob; [ -f "$e" ] && b=$e; }; done ;;
  stratumc/fuzz) [ -f "$e" ] && b=$e ;;
esac
# Node 20 reads and parses every certificate of NODE_EXTRA_CA_CERTS when it starts, used or not
# (a 220 KB bundle: ~40 ms of CPU, more than the check itself). The check-only and explore programs
# open no connection (the explore program's worker threads neither), so they are started without
# the variable (docs/design/startup.md).
k=
case $b in "$d/stratumc-check.blob" | "$e") k=1 ;; esac
# Node from the blob, as a child of this shell (below), so the settings of the two short-lived
# programs stay out of the plain bundle's fallback:
# - Node reads the whole blob into fresh memory twice (the file, then a copy for V8) before V8
#   deserialises it, and a first touch of each 4 KB page is a page fault: 45-115 ms of a check or
#   fuzz on the development machine (a virtual machine, where a fault costs more). glibc 2.35 and
#   later backs malloc's large blocks with transparent huge pages when asked (the kernel's default
#   "madvise" mode allows it; other C libraries ignore the variable). A caller's own choice wins.
# - Node's default of four V8 worker threads lets the optimising compiler and the garbage
#   collector take the cores from the main thread on a small machine (on 2 cores a fuzz took a
#   quarter longer); 0 is node's own estimate, the cores less one. The servers keep the default.
snapshot_node() {
  if [ -z "$k" ]; then exec "$n" --snapshot-blob "$b" -- "$@"; fi
  unset NODE_EXTRA_CA_CERTS
  case ${GLIBC_TUNABLES-} in
    *glibc.malloc.hugetlb=*) ;;
    *) GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1; export GLIBC_TUNABLES ;;
  esac
  exec "$n" --v8-pool-size=0 --snapshot-blob "$b" -- "$@"
}
p=
if [ -n "$n" ] && [ -f "$b" ] && [ -z "$NODE_OPTIONS$STRATUMC_NO_SNAPSHOT" ]; then
  o=$IFS; IFS=:; set -f
  for e in $PATH; do [ -x "${e:-.}/node" ] && { p=${e:-.}/node; break; }; done
  set +f; IFS=$o
fi
# Node runs from the snapshot as a child, not exec'd, to fall back when it refuses the blob, so this
# shell passes the signals a caller sends it on (`kill <pid>` of `stratumc ui`, an editor stopping
# `lsp`, a client stopping `serve`) and ends as node ended: with its status, or by the same signal.
# Traps are set before node starts: a signal that comes before $! is known is sent once it is. An
# asynchronous command's stdin is /dev/null unless redirected, so node gets this shell's stdin
# (when it has one) through descriptor 9. A trapped signal interrupts `wait`; the loop waits again for node's status
# (a second `wait` for an already collected node says 127, which is not node's status).
if [ -n "$p" ] && [ "$p" -ef "$n" ] && [ "$b" -nt "$n" ]; then
  f= q= w=
  for g in 1 2 15; do
    trap "f=$g w=1; if [ -n \"\$!\" ]; then kill -$g \$! 2>/dev/null; else q=$g; fi" "$g"
  done
  if { command exec 9<&0; } 2>/dev/null; then
    snapshot_node "$@" <&9 9<&- &
    exec 9<&-
  else
    snapshot_node "$@" &
  fi
  [ -n "$q" ] && kill -"$q" $! 2>/dev/null
  r= w=1
  while [ -n "$w" ]; do
    w=
    wait $!
    c=$?
    { [ -z "$r" ] || [ "$c" -ne 127 ]; } && r=$c
  done
  trap - 1 2 15
  [ -n "$f" ] && [ "$r" -eq $((128 + f)) ] && kill -"$f" $$
  [ "$r" -ne 14 ] && exit "$r"
  rm -f "$b"
fi
exec node "$s" "$@"
*/ + "";
require("../dist/stratumc.cjs");
