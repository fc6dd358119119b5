// The public JSON form of a finding (CLI `fuzz --format json`, the MCP tool stratum_fuzz), keys in
// this order. A module of its own, with type imports only, so the CLI can use it without loading
// the fuzzer (cli/fuzzer-loader.ts).
import type { Diagnostic } from "../checker/index";
import type { FuzzFinding } from "./report";

/** A checker diagnostic shown among findings has no flow, step or counterexample. */
export function findingJson(d: Diagnostic, f: FuzzFinding | null) {
  const c = f?.counterexample ?? null;
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    flow: f?.flow ?? null,
    step: f?.step ?? null,
    line: d.line,
    column: d.column,
    end_line: d.end_line,
    end_column: d.end_column,
    related: d.related ?? [],
    counterexample: c === null ? null : { seed: c.seed, input: c.input, calls: c.calls },
  };
}
