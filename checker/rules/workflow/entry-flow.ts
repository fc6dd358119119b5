// The workflow's entry flow (docs/reference/language.md §7): the flow named like `workflow.name`, else the only
// flow of the document. Shared by both workflow rules.
import type { FlowDecl, SpecModel } from "../../model/types";

export type EntryFlow =
  | { readonly kind: "flow"; readonly flow: FlowDecl }
  /** No flow qualifies; `count` flows are declared. */
  | { readonly kind: "none"; readonly count: number }
  /** Cannot be known: the flows section or the chosen flow is structurally invalid. */
  | { readonly kind: "unknown" };

export function entryFlow(model: SpecModel, name: string): EntryFlow {
  const flows = model.root.get("flows");
  if (flows !== undefined && flows.value.kind !== "map") return { kind: "unknown" };
  const entries = flows !== undefined && flows.value.kind === "map" ? flows.value.entries : [];
  const named = entries.find((e) => e.name === name);
  const chosen = named ?? (entries.length === 1 ? entries[0] : undefined);
  if (chosen === undefined) return { kind: "none", count: entries.length };
  const flow = chosen.name === null ? undefined : model.flowByName.get(chosen.name);
  // A flow whose definition is not a mapping has no declaration: its inputs are unknown.
  return flow === undefined ? { kind: "unknown" } : { kind: "flow", flow };
}
