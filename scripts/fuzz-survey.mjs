// Runs the built `stratumc fuzz` over the reference corpus (test/fuzzer/reference-specs, written by
// scripts/extract-reference-specs.mjs) for several seeds and says which findings appear on which
// seed, with the verdicts of test/fuzzer/reference-specs/labels.json: a tool for people, not a test.
//
//   node scripts/build.mjs && node scripts/fuzz-survey.mjs [options] [FILE|DIR ...]
//
//   --seeds 1,7,11,42,99   seeds to fuzz with
//   --concurrency 2        fuzz processes at a time
//   --time-budget 20s      passed to `stratumc fuzz` (the report then depends on the machine)
//   --runs N               passed to `stratumc fuzz`
//   --timeout 300          seconds before one fuzz process is killed (recorded as a timeout)
//   --out PREFIX           writes PREFIX.json and PREFIX.md (default: survey, in the current folder)
//   --labels FILE          default test/fuzzer/reference-specs/labels.json
//   --from-json FILE       no fuzzing: rebuild the summary from an earlier PREFIX.json (new labels)
//
// Files default to every *.stratum.yaml under test/fuzzer/reference-specs. Each spec is checked
// once (`stratumc check --format json`); only specs that check are fuzzed. A finding is keyed
// `file|code|line`; one that does not appear on every seed is seed-dependent.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = join(ROOT, "test/fuzzer/reference-specs");
const CLI = join(ROOT, "dist/stratumc.cjs");

const opts = {
  seeds: [1, 7, 11, 42, 99],
  concurrency: 2,
  timeBudget: null,
  runs: null,
  timeout: 300,
  out: "survey",
  labels: join(CORPUS, "labels.json"),
  fromJson: null,
};
const targets = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const value = () => {
    if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
    return argv[++i];
  };
  if (a === "--seeds") opts.seeds = value().split(",").map(Number);
  else if (a === "--concurrency") opts.concurrency = Number(value());
  else if (a === "--time-budget") opts.timeBudget = value();
  else if (a === "--runs") opts.runs = value();
  else if (a === "--timeout") opts.timeout = Number(value());
  else if (a === "--out") opts.out = value();
  else if (a === "--labels") opts.labels = value();
  else if (a === "--from-json") opts.fromJson = value();
  else if (a.startsWith("--")) throw new Error(`unknown option ${a}`);
  else targets.push(a);
}

/** Every *.stratum.yaml of the targets, relative to the repository, sorted. */
function specFiles(paths) {
  const out = [];
  const walk = (p) => {
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
    else if (p.endsWith(".stratum.yaml")) out.push(relative(ROOT, p));
  };
  for (const p of paths.length > 0 ? paths : [CORPUS]) walk(resolve(p));
  return [...new Set(out)].sort();
}

/** Runs the CLI; resolves with stdout, the exit code and whether it was killed for time. */
function runCli(args, timeoutSeconds) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutSeconds * 1000);
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, timedOut });
    });
  });
}

async function pool(jobs, size, onDone) {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      onDone(job, await job.run());
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, size) }, worker));
}

const manifestEntries = () => {
  const path = join(CORPUS, "manifest.json");
  if (!existsSync(path)) return new Map();
  const m = JSON.parse(readFileSync(path, "utf8"));
  return new Map(m.files.map((f) => [`test/fuzzer/reference-specs/${f.file}`, f]));
};

async function survey() {
  const files = specFiles(targets);
  const started = Date.now();
  // One check for all files: it does not depend on the seed.
  const checks = {};
  for (let i = 0; i < files.length; i += 50) {
    const chunk = files.slice(i, i + 50);
    const r = await runCli(["check", "--format", "json", ...chunk], opts.timeout);
    for (const f of JSON.parse(r.stdout)) {
      const errors = f.errors.map((e) => ({ code: e.code, line: e.line, message: e.message }));
      checks[f.file] = { status: checkStatus(f.valid), errors };
    }
  }
  const fuzzable = files.filter((f) => checks[f]?.status === "ok");
  const runs = []; // {file, seed, status, runs, paths, exhaustive, soundness, findings, seconds}
  const jobs = [];
  for (const file of fuzzable) {
    for (const seed of opts.seeds) {
      const args = ["fuzz", "--format", "json", "--seed", String(seed)];
      if (opts.timeBudget) args.push("--time-budget", opts.timeBudget);
      if (opts.runs) args.push("--runs", opts.runs);
      args.push(file);
      jobs.push({ file, seed, run: () => timed(() => runCli(args, opts.timeout)) });
    }
  }
  let done = 0;
  await pool(jobs, opts.concurrency, (job, { value: r, seconds }) => {
    done++;
    const base = { file: job.file, seed: job.seed, seconds };
    if (r.timedOut) runs.push({ ...base, status: "timeout" });
    else {
      try {
        const report = JSON.parse(r.stdout).files[0];
        runs.push({
          ...base,
          status: "ok",
          runs: report.runs,
          paths: report.paths,
          exhaustive: report.exhaustive,
          soundness: report.soundness,
          findings: report.findings.map(({ counterexample, related, ...f }) => ({
            ...f,
            witness: counterexample !== null,
          })),
        });
      } catch {
        runs.push({ ...base, status: "failed", exit: r.code, stderr: r.stderr.slice(0, 2000) });
      }
    }
    if (done % 25 === 0 || done === jobs.length) {
      process.stderr.write(
        `${done}/${jobs.length} fuzz runs, ${Math.round((Date.now() - started) / 1000)} s\n`,
      );
    }
  });
  runs.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.seed - b.seed));
  return {
    stratumc_commit: execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
    }).trim(),
    date: new Date().toISOString(),
    seeds: opts.seeds,
    options: { time_budget: opts.timeBudget, runs: opts.runs, concurrency: opts.concurrency },
    seconds: Math.round((Date.now() - started) / 1000),
    checks,
    runs,
  };
}

/** "ok" or "check-errors". */
function checkStatus(valid) {
  return valid ? "ok" : "check-errors";
}

async function timed(f) {
  const t = Date.now();
  const value = await f();
  return { value, seconds: (Date.now() - t) / 1000 };
}

// ---------------------------------------------------------------------------------------------

/** Distinct findings across seeds, keyed `file|code|line`. */
function distinctFindings(result) {
  const byKey = new Map();
  for (const run of result.runs) {
    if (run.status !== "ok") continue;
    for (const f of run.findings) {
      const key = `${run.file.replace("test/fuzzer/reference-specs/", "")}|${f.code}|${f.line}`;
      let d = byKey.get(key);
      if (!d) {
        d = {
          key,
          file: run.file,
          code: f.code,
          line: f.line,
          flow: f.flow,
          step: f.step,
          seeds: [],
          messages: [],
        };
        byKey.set(key, d);
      }
      if (!d.seeds.includes(run.seed)) d.seeds.push(run.seed);
      if (!d.messages.includes(f.message)) d.messages.push(f.message);
    }
  }
  const seedsRun = new Map();
  for (const run of result.runs) {
    if (run.status === "ok") seedsRun.set(run.file, [...(seedsRun.get(run.file) ?? []), run.seed]);
  }
  for (const d of byKey.values()) d.seedDependent = d.seeds.length < (seedsRun.get(d.file)?.length ?? 0);
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
}

const cell = (s) => String(s).replaceAll("|", "\\|").replaceAll("\n", " ");
const pct = (n, d) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(0)} %`);

function summary(result, labels) {
  const manifest = manifestEntries();
  const findings = distinctFindings(result);
  const kindOf = (file) => manifest.get(file)?.kind ?? file.split("/").at(-2);
  const files = Object.keys(result.checks).sort();
  for (const f of files) result.checks[f].status = checkStatus(result.checks[f].status === "ok");
  const out = [];
  out.push("# Fuzz survey of the reference corpus", "");
  out.push(
    `stratumc commit \`${result.stratumc_commit}\`, ${result.date.slice(0, 10)}; seeds ${result.seeds.join(", ")}; ` +
      `time budget ${result.options.time_budget ?? "none"}, runs ${result.options.runs ?? "default (100)"}; ` +
      `${result.seconds} s with ${result.options.concurrency} process(es). Written by \`scripts/fuzz-survey.mjs\`.`,
    "",
  );

  out.push("## The corpus and `check`", "", "| kind | files | check ok | check errors |");
  out.push("|---|---|---|---|");
  const kinds = [...new Set(files.map(kindOf))].sort();
  for (const k of [...kinds, "all"]) {
    const fs = files.filter((f) => k === "all" || kindOf(f) === k);
    const n = (s) => fs.filter((f) => result.checks[f].status === s).length;
    out.push(`| ${k} | ${fs.length} | ${n("ok")} | ${n("check-errors")} |`);
  }

  const broken = files.filter((f) => result.checks[f].status !== "ok");
  if (broken.length > 0) {
    out.push(
      "",
      "Specs that fail `check` (not fuzzed):",
      "",
      "| file | status | errors (code:line) |",
      "|---|---|---|",
    );
    for (const f of broken) {
      const errs = result.checks[f].errors.map((e) => `${e.code}:${e.line}`).join(", ");
      const name = f.replace("test/fuzzer/reference-specs/", "");
      out.push(`| ${cell(name)} | ${result.checks[f].status} | ${cell(errs)} |`);
    }
  }
  const bad = result.runs.filter((r) => r.status !== "ok");
  out.push("", `Fuzz runs: ${result.runs.length} (${bad.length} timed out or failed).`);
  for (const r of bad)
    out.push(
      `- ${r.file} seed ${r.seed}: ${r.status}${r.stderr ? ` — ${cell(r.stderr.slice(0, 200))}` : ""}`,
    );

  // Totals and precision by code.
  out.push("", "## Findings by code", "");
  out.push(
    "Distinct findings (`file|code|line`); precision = true / (true + false) over the labelled ones " +
      "(labels.json).",
    "",
  );
  out.push(
    "| code | distinct | on every seed | seed-dependent | true | false | unclear | unlabelled | precision |",
  );
  out.push("|---|---|---|---|---|---|---|---|---|");
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  const verdict = (f) => labels[f.key]?.verdict ?? null;
  const row = (name, fs) => {
    const v = (x) => fs.filter((f) => verdict(f) === x).length;
    const t = v("true");
    const fa = v("false");
    const dep = fs.filter((f) => f.seedDependent).length;
    out.push(
      `| ${name} | ${fs.length} | ${fs.length - dep} | ${dep} | ${t} | ${fa} | ${v("unclear")} | ${v(null)} | ${pct(t, t + fa)} |`,
    );
  };
  for (const c of codes)
    row(
      c,
      findings.filter((f) => f.code === c),
    );
  row("all", findings);

  const keys = new Set(findings.map((f) => f.key));
  const stale = Object.keys(labels).filter((k) => !keys.has(k));
  const unlabelled = findings.filter((f) => verdict(f) === null);
  out.push("", `Unlabelled findings: ${unlabelled.length}.`);
  for (const f of unlabelled) out.push(`- \`${f.key}\` ${cell(f.messages[0])}`);
  out.push("", `Labels that match no finding of this survey: ${stale.length}.`);
  for (const k of stale) out.push(`- \`${k}\` (${labels[k].verdict})`);

  out.push("", "## Seed-dependent findings", "");
  const dependent = findings.filter((f) => f.seedDependent);
  if (dependent.length === 0) out.push("None.");
  else {
    out.push("| finding | seeds | verdict |", "|---|---|---|");
    for (const f of dependent)
      out.push(`| \`${cell(f.key)}\` | ${f.seeds.join(", ")} | ${verdict(f) ?? "–"} |`);
  }

  out.push("", "## Every finding", "");
  out.push(
    "| file | code | line | flow/step | seeds | message | verdict | why |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const f of findings) {
    const l = labels[f.key];
    const msg =
      f.messages.length === 1 ? f.messages[0] : `${f.messages[0]} (+${f.messages.length - 1} other wording)`;
    out.push(
      `| ${cell(f.file.replace("test/fuzzer/reference-specs/", ""))} | ${f.code} | ${f.line} | ${cell(`${f.flow}/${f.step ?? "-"}`)} | ` +
        `${f.seedDependent ? f.seeds.join(", ") : "all"} | ${cell(msg)} | ${l?.verdict ?? "–"} | ${cell(l?.why ?? "")} |`,
    );
  }

  out.push("", "## Soundness per flow", "");
  out.push(
    "Flows whose verdicts are not all `proven` / `not_refuted`, or differ between seeds " +
      "(o = option_to_complete, p = proper_completion, d = no_dead_steps).",
    "",
  );
  const perFlow = new Map();
  for (const run of result.runs) {
    if (run.status !== "ok") continue;
    for (const [flow, s] of Object.entries(run.soundness)) {
      const key = `${run.file.replace("test/fuzzer/reference-specs/", "")} ${flow}`;
      const text = `o ${s.option_to_complete}, p ${s.proper_completion}, d ${s.no_dead_steps}`;
      perFlow.set(key, [...(perFlow.get(key) ?? []), { seed: run.seed, text, exhaustive: run.exhaustive }]);
    }
  }
  const good = /^o (proven|not_refuted), p (proven|not_refuted), d (proven|not_refuted)$/;
  let clean = 0;
  const rows = [];
  for (const [key, list] of [...perFlow].sort()) {
    const texts = [...new Set(list.map((x) => x.text))];
    if (texts.length === 1 && good.test(texts[0])) {
      clean++;
      continue;
    }
    const shown =
      texts.length === 1 ? `all seeds: ${texts[0]}` : list.map((x) => `${x.seed}: ${x.text}`).join("; ");
    rows.push(`| ${cell(key)} | ${cell(shown)} |`);
  }
  out.push(`${perFlow.size} flows; ${clean} clean on every seed; ${rows.length} below.`, "");
  if (rows.length > 0) out.push("| file flow | verdicts |", "|---|---|", ...rows);
  return { text: `${out.join("\n")}\n`, findings, unlabelled, stale };
}

const result = opts.fromJson ? JSON.parse(readFileSync(opts.fromJson, "utf8")) : await survey();
if (!opts.fromJson) writeFileSync(`${opts.out}.json`, `${JSON.stringify(result, null, 1)}\n`);
const labels = existsSync(opts.labels) ? JSON.parse(readFileSync(opts.labels, "utf8")) : {};
const s = summary(result, labels);
writeFileSync(`${opts.out}.md`, s.text);
const lines = s.text.split("\n");
const start = lines.indexOf("## Findings by code");
console.log(lines.slice(start, lines.indexOf("## Seed-dependent findings")).join("\n"));
console.log(`wrote ${opts.out}.md${opts.fromJson ? "" : ` and ${opts.out}.json`}`);
