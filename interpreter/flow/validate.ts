// `stratum_validate` (docs/reference/runtime.md §16.3): the same `{valid, errors, warnings}` as `stratumc validate`.
import { checkSpec } from "../../checker/check-spec";
import type { Diagnostic } from "../../checker/diagnostic";
import type { Response, WireObject } from "../wire/wire";

/** Public diagnostics are plain JSON objects with fixed keys. */
export function diagnosticWire(d: Diagnostic): WireObject {
  return d as unknown as WireObject;
}

export function validate(args: { readonly spec: string }): Response {
  const checked = checkSpec(args.spec);
  return {
    valid: checked.valid,
    errors: checked.errors.map(diagnosticWire),
    warnings: checked.warnings.map(diagnosticWire),
  };
}
