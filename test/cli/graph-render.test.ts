// Mermaid and DOT renderings of flow graphs (cli/graph/render.ts) on hand-made graphs.
import { describe, expect, it } from "vitest";
import type { GraphFlow } from "../../checker/flow-graphs";
import { renderDot, renderMermaid } from "../../cli/graph/render";

const REVIEW: GraphFlow = {
  name: "review",
  nodes: [
    { id: "draft", kind: "function", target: "write" },
    { id: "check", kind: "inline", target: null },
    { id: "approve", kind: "gate", target: "human" },
    { id: "publish", kind: "flow", target: "release" },
  ],
  edges: [
    { from: "draft", to: "check", route: null },
    { from: "check", to: "draft", route: "on_fail" },
    { from: "check", to: "approve", route: null },
    { from: "approve", to: "publish", route: "approve" },
    { from: "approve", to: "draft", route: "revise" },
    { from: "approve", to: null, route: "kill" },
    { from: "approve", to: "publish", route: null, order: true },
  ],
};

const RELEASE: GraphFlow = {
  name: "release",
  nodes: [
    { id: "tag", kind: "inline", target: null },
    { id: "push", kind: "function", target: "push" },
  ],
  edges: [{ from: "tag", to: "push", route: "next" }],
};

describe("mermaid", () => {
  it("draws one flow without a subgraph: shapes per kind, solid dependencies, dashed labelled routes, END", () => {
    expect(renderMermaid([REVIEW])).toBe(
      [
        "flowchart TD",
        '  f0_s0["draft<br/>function: write"]',
        '  f0_s1(["check<br/>inline"])',
        '  f0_s2{"approve<br/>gate: human"}',
        '  f0_s3[["publish<br/>flow: release"]]',
        "  f0_end((END))",
        "  f0_s0 --> f0_s1",
        "  f0_s1 -. on_fail .-> f0_s0",
        "  f0_s1 --> f0_s2",
        "  f0_s2 -. approve .-> f0_s3",
        "  f0_s2 -. revise .-> f0_s0",
        "  f0_s2 -. kill .-> f0_end",
        "  f0_s2 ~~~ f0_s3",
        "",
      ].join("\n"),
    );
  });

  it("draws several flows as subgraphs; END only where a route ends the flow", () => {
    expect(renderMermaid([REVIEW, RELEASE])).toBe(
      [
        "flowchart TD",
        '  subgraph f0["review"]',
        '    f0_s0["draft<br/>function: write"]',
        '    f0_s1(["check<br/>inline"])',
        '    f0_s2{"approve<br/>gate: human"}',
        '    f0_s3[["publish<br/>flow: release"]]',
        "    f0_end((END))",
        "    f0_s0 --> f0_s1",
        "    f0_s1 -. on_fail .-> f0_s0",
        "    f0_s1 --> f0_s2",
        "    f0_s2 -. approve .-> f0_s3",
        "    f0_s2 -. revise .-> f0_s0",
        "    f0_s2 -. kill .-> f0_end",
        "    f0_s2 ~~~ f0_s3",
        "  end",
        '  subgraph f1["release"]',
        '    f1_s0(["tag<br/>inline"])',
        '    f1_s1["push<br/>function: push"]',
        "    f1_s0 -. next .-> f1_s1",
        "  end",
        "",
      ].join("\n"),
    );
  });

  it("escapes user text in labels so it cannot break out of the quotes", () => {
    const flow: GraphFlow = {
      name: 'a"] --> x',
      nodes: [{ id: 'say "hi" <b>#1</b> & `x`\n', kind: "function", target: "f" }],
      edges: [],
    };
    const out = renderMermaid([flow, RELEASE]);
    expect(out).toContain('  subgraph f0["a#34;] --#62; x"]');
    expect(out).toContain(
      '    f0_s0["say #34;hi#34; #60;b#62;#35;1#60;/b#62; #38; #96;x#96; <br/>function: f"]',
    );
  });
});

describe("dot", () => {
  it("draws one flow: diamonds for gates, double boxes for sub-flows, dashed labelled routes", () => {
    expect(renderDot([REVIEW])).toBe(
      [
        "digraph stratum {",
        "  rankdir=TB;",
        "  node [shape=box];",
        '  f0_s0 [label="draft\\nfunction: write"];',
        '  f0_s1 [label="check\\ninline", style="rounded"];',
        '  f0_s2 [label="approve\\ngate: human", shape=diamond];',
        '  f0_s3 [label="publish\\nflow: release", peripheries=2];',
        '  f0_end [label="END", shape=doublecircle];',
        "  f0_s0 -> f0_s1;",
        '  f0_s1 -> f0_s0 [style=dashed, label="on_fail"];',
        "  f0_s1 -> f0_s2;",
        '  f0_s2 -> f0_s3 [style=dashed, label="approve"];',
        '  f0_s2 -> f0_s0 [style=dashed, label="revise"];',
        '  f0_s2 -> f0_end [style=dashed, label="kill"];',
        "  f0_s2 -> f0_s3 [style=invis];",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("puts several flows in clusters and escapes quotes, backslashes and control characters", () => {
    const flow: GraphFlow = {
      name: 'x"\\y',
      nodes: [{ id: 'a"b\\c\td', kind: "inline", target: null }],
      edges: [],
    };
    const out = renderDot([flow, RELEASE]).split("\n");
    expect(out.slice(3, 7)).toEqual([
      "  subgraph cluster_0 {",
      '    label="x\\"\\\\y";',
      '    f0_s0 [label="a\\"b\\\\c d\\ninline", style="rounded"];',
      "  }",
    ]);
    expect(out).toContain('    f1_s0 -> f1_s1 [style=dashed, label="next"];');
  });
});

describe("renderer guards", () => {
  it("refuses an edge to a step that is not in the flow (an IR bug, not user input)", () => {
    const broken: GraphFlow = { name: "f", nodes: [], edges: [{ from: "a", to: "b", route: null }] };
    expect(() => renderMermaid([broken])).toThrow("graph: edge to unknown step 'a' in flow 'f'");
  });
});
