// The CPython baseline: one python3 process compiles and evaluates the same corpus with the same
// bindings, timeit-style (median per call over several batches), and prints the medians as JSON.
import { spawnSync } from "node:child_process";
import type { LoopOptions } from "./timing";

export interface PythonCase {
  readonly expr: string;
  /** The bindings as JSON text (Python's json keeps the int/float distinction too). */
  readonly bindings: string;
}

export interface PythonTimes {
  /** Per case: median ns of compile(expr, '<expr>', 'eval'), null when it does not compile. */
  readonly compile: (number | null)[];
  /** Per case: median ns of eval(code, globals), null when it raises in CPython. */
  readonly eval: (number | null)[];
  readonly version: string;
}

// The file builtins and the literal aliases are provided as globals, like the expression
// language does; `result`/`item` objects become SimpleNamespace as in a spec.
const SCRIPT = `
import json, os, sys, time, types
req = json.load(sys.stdin)
batch_ns, batches, root = req["batch_ns"], req["batches"], req["root"]

def file_exists(p):
    return os.path.isfile(os.path.join(root, p))

def file_contains(p, needle):
    try:
        with open(os.path.join(root, p), encoding="utf-8", errors="replace") as f:
            return needle in f.read()
    except OSError:
        return False

extra = {"file_exists": file_exists, "file_contains": file_contains, "true": True, "false": False, "null": None}

def per_call(fn):
    n = 1
    while True:
        t0 = time.perf_counter_ns()
        for _ in range(n): fn()
        t = time.perf_counter_ns() - t0
        if t >= batch_ns / 4 or n >= 1 << 24: break
        n *= 2
    n = max(1, -(-n * batch_ns // max(t, 1)))
    samples = []
    for _ in range(batches):
        t0 = time.perf_counter_ns()
        for _ in range(n): fn()
        samples.append((time.perf_counter_ns() - t0) / n)
    samples.sort()
    m = len(samples) // 2
    return samples[m] if len(samples) % 2 else (samples[m - 1] + samples[m]) / 2

out = {"compile": [], "eval": [], "version": sys.version.split()[0]}
for case in req["cases"]:
    src = case["expr"]
    try:
        code = compile(src, "<expr>", "eval")
    except SyntaxError:
        out["compile"].append(None); out["eval"].append(None); continue
    out["compile"].append(per_call(lambda: compile(src, "<expr>", "eval")))
    g = dict(extra)
    for k, v in json.loads(case["bindings"]).items():
        g[k] = types.SimpleNamespace(**v) if k in ("result", "item") and isinstance(v, dict) else v
    try:
        eval(code, dict(g))
    except Exception:
        out["eval"].append(None); continue
    out["eval"].append(per_call(lambda: eval(code, g)))
json.dump(out, sys.stdout)
`;

export function measureCPython(cases: readonly PythonCase[], loop: LoopOptions, root: string): PythonTimes {
  const input = JSON.stringify({ cases, batch_ns: loop.batchNs, batches: loop.batches, root });
  const r = spawnSync("python3", ["-c", SCRIPT], { input, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`python3 baseline failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as PythonTimes;
}
