// Writes a spec model as YAML text (pure: the same model always gives the same text).
import type { Contract, Entry, FieldDef, FlowModel, SpecModel } from "./model";
import { doubleQuoted } from "./scalars";

function pad(n: number): string {
  return " ".repeat(n);
}

function entryLines(out: string[], indent: number, e: Entry, prefix = ""): void {
  const lead = prefix === "" ? pad(indent) : `${pad(indent - prefix.length)}${prefix}`;
  const head = e.value.head === "" ? "" : ` ${e.value.head}`;
  out.push(`${lead}${e.key}:${head}${e.comment !== undefined ? `  # ${e.comment}` : ""}`);
  for (const line of e.value.body) out.push(`${pad(indent + 2)}${line}`);
}

function fieldLines(out: string[], f: FieldDef): void {
  const parts: [string, string][] = [["type", f.type]];
  if (f.values !== undefined) parts.push(["values", `[${f.values.join(", ")}]`]);
  if (f.items !== undefined) parts.push(["items", `{type: ${f.items}}`]);
  if (!f.required) parts.push(["required", "false"]);
  if (f.description !== undefined) parts.push(["description", doubleQuoted(f.description)]);
  if (f.block) {
    out.push(`    ${f.name}:`);
    for (const [k, v] of parts) out.push(`      ${k}: ${v}`);
  } else {
    out.push(`    ${f.name}: {${parts.map(([k, v]) => `${k}: ${v}`).join(", ")}}`);
  }
}

function contractLines(out: string[], c: Contract): void {
  out.push(`  ${c.name}:`);
  for (const f of c.fields) fieldLines(out, f);
}

function flowLines(out: string[], flow: FlowModel, model: SpecModel): void {
  out.push(`  ${flow.name}:`);
  for (const e of flow.header) entryLines(out, 4, e);
  out.push("    steps:");
  const itemIndent = model.style.indentedSequences ? 8 : 6;
  flow.steps.forEach((step, i) => {
    if (model.style.airy && i > 0) out.push("");
    if (step.comment !== undefined) out.push(`${pad(itemIndent - 2)}# ${step.comment}`);
    step.entries.forEach((e, k) => {
      entryLines(out, itemIndent, e, k === 0 ? "- " : "");
    });
  });
}

function workflowLines(out: string[], model: SpecModel): void {
  const w = model.workflow;
  if (w === null) return;
  out.push("workflow:", `  name: ${w.name}`, `  description: ${doubleQuoted(w.description)}`, "  input:");
  for (const i of w.entry.inputs) {
    const meta = !w.metadata
      ? ""
      : i.type === "boolean"
        ? ", required: false, default: false"
        : ", required: true";
    out.push(`    ${i.name}: {type: ${i.type}${meta}}`);
  }
  out.push("");
}

export function emitSpec(model: SpecModel): string {
  const out: string[] = model.headerComments.map((c) => `# ${c}`);
  const q = model.style.versionQuote;
  out.push(`version: ${q}${model.version}${q}`, "");
  workflowLines(out, model);
  if (model.contracts.size > 0) {
    out.push("contracts:");
    for (const c of model.contracts.values()) contractLines(out, c);
    out.push("");
  }
  if (model.functions.length > 0) {
    out.push("functions:");
    model.functions.forEach((fn, i) => {
      if (model.style.airy && i > 0) out.push("");
      out.push(`  ${fn.name}:`);
      for (const e of fn.entries) entryLines(out, 4, e);
    });
    out.push("");
  }
  out.push("flows:");
  model.flows.forEach((flow, i) => {
    if (i > 0) out.push("");
    flowLines(out, flow, model);
  });
  return `${out.join("\n")}\n`;
}
