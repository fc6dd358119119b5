// One-line and Markdown summaries of steps, functions, flows and contracts for completion details
// and hovers. Read from the YAML tree (so they work on broken documents) and, for types, from the
// model's contract records when there is a model.
import { typeToString } from "../../stdlib/types/print";
import { contractRecords } from "../spec-expr/contracts";
import type { MapNode, SpecNode } from "../yaml/nodes";
import { pythonRepr } from "../yaml/repr";
import { nodeAt, stringValue } from "./context-schema";
import type { DocView } from "./cursor-view";

/** `function step (review)`, `gate step (approve)`, `inline step`, `sub-flow step (other)`. */
export function stepKindText(view: DocView, step: MapNode): string {
  const fn = stringValue(step.get("function")?.value);
  if (fn !== null) {
    const mode = stringValue(nodeAt(view.root, ["functions", fn, "mode"]));
    return `${mode === "gate" ? "gate" : "function"} step → ${fn}`;
  }
  const flow = stringValue(step.get("flow")?.value);
  if (flow !== null) return `sub-flow step → ${flow}`;
  if (step.get("intent") !== undefined) return "inline step";
  return "step";
}

/** A short written form of a node (scalars as written, collections as Python prints them). */
function shown(view: DocView, node: SpecNode): string {
  if (node.kind === "scalar") {
    const s = stringValue(node);
    return s !== null ? s : view.text.slice(node.range.start, node.range.end);
  }
  const repr = pythonRepr(node);
  return repr.length > 80 ? `${repr.slice(0, 77)}...` : repr;
}

const STEP_SUMMARY_KEYS = [
  "function",
  "flow",
  "intent",
  "agent",
  "depends_on",
  "output_contract",
  "retries",
  "max_iterations",
  "next",
  "on_fail",
  "on_approve",
  "on_revise",
  "on_kill",
  "policy",
  "skip_if",
] as const;

function bullet(key: string, value: string): string {
  return `- \`${key}\`: ${value.replace(/\s+/g, " ")}`;
}

/** Markdown summary of a step item. */
export function stepSummary(view: DocView, flow: string, step: MapNode): string {
  const id = stringValue(step.get("id")?.value) ?? "?";
  const lines = [`**step \`${id}\`** — ${stepKindText(view, step)} in flow \`${flow}\``, ""];
  for (const key of STEP_SUMMARY_KEYS) {
    const entry = step.get(key);
    if (entry !== undefined) lines.push(bullet(key, shown(view, entry.value)));
  }
  const inputs = step.get("inputs")?.value;
  if (inputs?.kind === "map" && inputs.entries.length > 0) {
    lines.push(`- \`inputs\`: ${inputs.entries.map((e) => e.name ?? "?").join(", ")}`);
  }
  return lines.join("\n").trimEnd();
}

/** Markdown summary of a function. */
export function functionSummary(view: DocView, name: string): string {
  const fn = nodeAt(view.root, ["functions", name]);
  const lines = [`**function \`${name}\`**`, ""];
  if (fn?.kind === "map") {
    for (const key of ["mode", "intent", "output", "retries", "timeout", "model"]) {
      const entry = fn.get(key);
      if (entry !== undefined) lines.push(bullet(key, shown(view, entry.value)));
    }
    const input = fn.get("input")?.value;
    if (input?.kind === "map" && input.entries.length > 0) {
      lines.push(`- \`input\`: ${input.entries.map((e) => e.name ?? "?").join(", ")}`);
    }
    const ensure = fn.get("ensure")?.value;
    if (ensure?.kind === "seq") {
      for (const item of ensure.items) lines.push(bullet("ensure", shown(view, item)));
    }
  }
  return lines.join("\n").trimEnd();
}

/** Markdown summary of a flow: inputs and steps. */
export function flowSummary(view: DocView, name: string): string {
  const flow = nodeAt(view.root, ["flows", name]);
  const lines = [`**flow \`${name}\`**`, ""];
  if (flow?.kind === "map") {
    const input = flow.get("input")?.value;
    if (input?.kind === "map")
      lines.push(`- \`input\`: ${input.entries.map((e) => e.name ?? "?").join(", ") || "none"}`);
    const output = flow.get("output")?.value;
    if (output !== undefined) lines.push(bullet("output", shown(view, output)));
    const steps = flow.get("steps")?.value;
    if (steps?.kind === "seq") {
      const ids = steps.items.map((s) => (s.kind === "map" ? (stringValue(s.get("id")?.value) ?? "?") : "?"));
      lines.push(`- \`steps\`: ${ids.join(" → ")}`);
    }
  }
  return lines.join("\n").trimEnd();
}

/** Markdown summary of a contract: its fields with their types. */
export function contractSummary(view: DocView, name: string): string {
  const record = view.model === null ? undefined : contractRecords(view.model).get(name);
  const lines = [`**contract \`${name}\`**`, ""];
  if (record !== undefined) {
    for (const [field, def] of record.fields) lines.push(`- \`${field}\`: ${typeToString(def.type)}`);
  } else {
    const contract = nodeAt(view.root, ["contracts", name]);
    for (const field of contract?.kind === "map" ? contract.entries : []) {
      const type = field.value.kind === "map" ? stringValue(field.value.get("type")?.value) : null;
      lines.push(`- \`${field.name ?? "?"}\`: ${type ?? "?"}`);
    }
  }
  return lines.join("\n").trimEnd();
}
