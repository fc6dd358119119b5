// Mermaid and Graphviz DOT renderings of flow graphs. Node ids are generated (`f<flow>_s<step>`,
// `f<flow>_end`) so user text only ever appears inside escaped labels. Dependency edges are solid,
// routing edges dashed with their label, order edges invisible; gate steps are diamonds, sub-flow
// steps double boxes, inline steps rounded. Several flows: one subgraph (DOT cluster) per flow.
import type { GraphFlow, GraphNode, NodeKind } from "../../checker/index";

function kindLabel(n: GraphNode): string {
  return n.target === null ? n.kind : `${n.kind}: ${n.target}`;
}

function ids(flow: GraphFlow, index: number): (step: string | null) => string {
  const byStep = new Map(flow.nodes.map((n, i) => [n.id, `f${index}_s${i}`]));
  return (step) => {
    if (step === null) return `f${index}_end`;
    const id = byStep.get(step);
    if (id === undefined) throw new Error(`graph: edge to unknown step '${step}' in flow '${flow.name}'`);
    return id;
  };
}

// --- Mermaid ---------------------------------------------------------------------------------

const MERMAID_SHAPE: Record<NodeKind, readonly [string, string]> = {
  function: ["[", "]"],
  gate: ["{", "}"],
  inline: ["([", "])"],
  flow: ["[[", "]]"],
  judge: ["[\\", "/]"],
  decompose: ["[/", "/]"],
  parallel_dispatch: ["[[", "]]"],
  pipeline: ["[\\", "\\]"],
  quorum: ["{{", "}}"],
  race: [">", "]"],
  debate: ["[(", ")]"],
};

/** Text inside a quoted Mermaid label: entity codes for what Mermaid would read as syntax. */
function mermaidText(text: string): string {
  return text.replace(/["#<>&`]|\p{Cc}/gu, (c) => (/\p{Cc}/u.test(c) ? " " : `#${c.charCodeAt(0)};`));
}

export function renderMermaid(flows: readonly GraphFlow[]): string {
  const out = ["flowchart TD"];
  const nested = flows.length > 1;
  flows.forEach((flow, index) => {
    const pad = nested ? "    " : "  ";
    if (nested) out.push(`  subgraph f${index}["${mermaidText(flow.name)}"]`);
    const id = ids(flow, index);
    for (const n of flow.nodes) {
      const [open, close] = MERMAID_SHAPE[n.kind];
      out.push(`${pad}${id(n.id)}${open}"${mermaidText(n.id)}<br/>${mermaidText(kindLabel(n))}"${close}`);
    }
    if (flow.edges.some((e) => e.to === null)) out.push(`${pad}${id(null)}((END))`);
    for (const e of flow.edges) {
      const link = e.order ? "~~~" : e.route === null ? "-->" : `-. ${e.route} .->`;
      out.push(`${pad}${id(e.from)} ${link} ${id(e.to)}`);
    }
    if (nested) out.push("  end");
  });
  return `${out.join("\n")}\n`;
}

// --- Graphviz DOT ----------------------------------------------------------------------------

const DOT_SHAPE: Record<NodeKind, string> = {
  function: "",
  gate: ", shape=diamond",
  inline: ', style="rounded"',
  flow: ", peripheries=2",
  judge: ", shape=invtrapezium",
  decompose: ", shape=trapezium",
  parallel_dispatch: ", shape=box3d",
  pipeline: ", shape=cylinder",
  quorum: ", shape=hexagon",
  race: ", shape=cds",
  debate: ", shape=octagon",
};

/** A DOT double-quoted string. */
function dotString(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\p{Cc}/gu, " ")}"`;
}

export function renderDot(flows: readonly GraphFlow[]): string {
  const out = ["digraph stratum {", "  rankdir=TB;", "  node [shape=box];"];
  const nested = flows.length > 1;
  flows.forEach((flow, index) => {
    const pad = nested ? "    " : "  ";
    if (nested) out.push(`  subgraph cluster_${index} {`, `    label=${dotString(flow.name)};`);
    const id = ids(flow, index);
    for (const n of flow.nodes) {
      // `\n` inside a DOT label is a line break; it is added after escaping the text.
      const label = `${dotString(n.id).slice(0, -1)}\\n${dotString(kindLabel(n)).slice(1)}`;
      out.push(`${pad}${id(n.id)} [label=${label}${DOT_SHAPE[n.kind]}];`);
    }
    if (flow.edges.some((e) => e.to === null))
      out.push(`${pad}${id(null)} [label="END", shape=doublecircle];`);
    for (const e of flow.edges) {
      const attrs = e.order
        ? " [style=invis]"
        : e.route === null
          ? ""
          : ` [style=dashed, label=${dotString(e.route)}]`;
      out.push(`${pad}${id(e.from)} -> ${id(e.to)}${attrs};`);
    }
    if (nested) out.push("  }");
  });
  out.push("}");
  return `${out.join("\n")}\n`;
}
