// `fuzz --format pretty`: every finding as `check` prints a diagnostic, followed, when it has a
// counterexample, by a one-line witness; then per fuzzed file a line with the counts and one
// soundness line per flow; at the end the summary line. No timings: the same seed prints the same
// bytes.
import {
  callWord,
  type FlowSoundness,
  type FuzzFinding,
  type FuzzReport,
  type Verdict,
} from "../../fuzzer/index";
import { clip, compactJson } from "../format/compact-json";
import { formatPrettyDiagnostic, formatSummary } from "../format/pretty";
import type { Totals } from "../format/report";
import type { Style } from "../format/style";
import type { FuzzRun } from "./run";

export interface PrettyContext {
  readonly style: Style;
  readonly programName: string;
  /** Where --save wrote each finding's counterexample. */
  readonly saved: ReadonlyMap<FuzzFinding, string>;
  /** A time budget was given: the flows of a file may have had different numbers of runs. */
  readonly budgeted: boolean;
}

const INPUT_WIDTH = 120;

export function formatFuzzPretty(run: FuzzRun, t: Totals, ctx: PrettyContext): string {
  let out = "";
  for (const { report, fuzz } of run.files) {
    if (fuzz === null) {
      for (const d of report.diagnostics)
        out += `${formatPrettyDiagnostic(report.file, report.lines, d, ctx.style)}\n\n`;
      if (report.lines !== null)
        out += `${ctx.style.bold(`${report.file}:`)} not fuzzed (the spec has errors)\n\n`;
      continue;
    }
    for (const f of fuzz.findings)
      out += `${formatPrettyDiagnostic(report.file, report.lines, f, ctx.style)}${witness(f, ctx)}\n\n`;
    out += `${soundnessBlock(report.file, fuzz, ctx)}\n`;
  }
  return out + formatSummary(t, ctx.style);
}

/** Witnesses up to this many calls are printed inline, call by call. */
const INLINE_CALLS = 10;

function witness(f: FuzzFinding, ctx: PrettyContext): string {
  const c = f.counterexample;
  if (c === null) return "";
  const count = `${c.calls.length} call${c.calls.length === 1 ? "" : "s"}`;
  const calls = c.calls.length <= INLINE_CALLS ? `${count} (${c.calls.map(callWord).join(" → ")})` : count;
  const file = ctx.saved.get(f);
  const how =
    file === undefined
      ? `--save DIR writes it; ${ctx.programName} replay FILE runs it`
      : `saved to ${file}; ${ctx.programName} replay ${file} runs it`;
  return `\n  = ${ctx.style.help("witness")}: ${calls}, input ${clip(compactJson(c.input), INPUT_WIDTH)} (${how})`;
}

function soundnessBlock(file: string, fuzz: FuzzReport, ctx: PrettyContext): string {
  const flows = Object.entries(fuzz.soundness);
  const stopped = fuzz.stoppedByDeadline ? ", stopped by the time budget" : "";
  const counts = `${fuzz.runs} runs, ${fuzz.paths} paths${fuzz.exhaustive ? ", exhaustive" : ""}, seed ${fuzz.seed}${stopped}`;
  const lines = [`${ctx.style.bold(`${file}:`)} ${counts}`];
  // Without a time budget every flow gets the same number of runs; with one, only a lone flow's is known.
  const runs =
    flows.length === 1 ? fuzz.runs : ctx.budgeted || flows.length === 0 ? null : fuzz.runs / flows.length;
  for (const [flow, s] of flows) {
    lines.push(`  ${flow}: ${verdicts(s, runs, ctx.style)}`);
    if (s.budget_exhausted !== undefined)
      lines.push(
        `    budget: ${s.budget_exhausted} of the runs and paths ran out of budget (budget_exhausted, a legal end)`,
      );
    for (const n of s.notes) lines.push(`    ${ctx.style.help("why")}: ${file}:${n.line}: ${n.message}`);
  }
  for (const [name, p] of Object.entries(fuzz.properties)) {
    const perFlow = ctx.budgeted ? null : p.runs;
    lines.push(`  property ${name} (${p.kind}, flow ${p.flow}): ${verdict(p.verdict, perFlow, ctx.style)}`);
    if (p.note !== undefined) lines.push(`    ${ctx.style.help("why")}: ${p.note}`);
  }
  if (fuzz.notExplored.length > 0)
    lines.push(`  not explored (time budget): ${clippedList(fuzz.notExplored)}`);
  return `${lines.join("\n")}\n`;
}

/** Up to ten names, then how many more. */
function clippedList(names: readonly string[]): string {
  const shown = names.slice(0, 10).join(", ");
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown;
}

function verdicts(s: FlowSoundness, runs: number | null, style: Style): string {
  return [
    `option to complete ${verdict(s.option_to_complete, runs, style)}`,
    `proper completion ${verdict(s.proper_completion, runs, style)}`,
    `no dead steps ${verdict(s.no_dead_steps, runs, style)}`,
  ].join(", ");
}

function verdict(v: Verdict, runs: number | null, style: Style): string {
  switch (v) {
    case "proven":
      return style.ok("proven");
    case "not_refuted":
      return runs === null ? "not refuted" : `not refuted in ${runs} runs`;
    case "violated":
      return style.error("violated");
    case "suspect":
      return style.warning("suspect");
  }
}
