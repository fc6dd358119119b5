// Completion and hover inside a property's expressions (docs/guides/testing-a-spec.md
// "Properties"): the `$` paths of the property state, with the checker's types, on a document that
// checks cleanly and on one being typed; signature help; the property's keys and its flow.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { completionsAt, hoverAt, signatureHelpAt } from "../../../../checker/services/assist";
import { docAt, docWithRanges, item, labels, sortedLabels } from "./support";

const EXAMPLE = readFileSync(
  new URL("../../../../examples/release-properties.stratum.yaml", import.meta.url),
  "utf8",
);
const NEVER = `never: "$.steps.build.attempts > 3"`;

/** The example with its `bounded_build` condition replaced (a `<|>` or `«…»` marks the cursor). */
function withNever(condition: string): string {
  const out = EXAMPLE.replace(NEVER, `never: "${condition}"`);
  expect(out).not.toBe(EXAMPLE);
  return out;
}

function completions(condition: string) {
  const { doc, offset } = docAt(withNever(condition));
  return completionsAt(doc, offset);
}

describe("completion of property state paths", () => {
  test("a lone `$` offers the four scopes of the state, not a step's", () => {
    expect(sortedLabels(completions("$<|>"))).toEqual(["$.input", "$.flow", "$.steps", "$.gates"]);
  });

  test("after `$.` the scopes, each with its meaning", () => {
    const items = completions("$.<|>");
    expect(sortedLabels(items)).toEqual(["input", "flow", "steps", "gates"]);
    expect(item(items, "gates")?.documentation).toContain("$.gates.<id>.outcome");
  });

  test("`$.flow.` offers status and round with the types the checker gives them", () => {
    const items = completions("$.flow.<|>");
    expect(sortedLabels(items)).toEqual(["status", "round"]);
    expect(item(items, "status")?.detail).toBe("str{'running','complete','failed','killed'}");
    expect(item(items, "round")?.detail).toBe("int");
  });

  test("`$.steps.` offers every step of the property's flow; `$.gates.` only its gates", () => {
    expect(sortedLabels(completions("$.steps.<|>"))).toEqual(["build", "sign_off", "deploy"]);
    expect(sortedLabels(completions("$.gates.<|>"))).toEqual(["sign_off"]);
  });

  test("a step id is completed in place, the part typed replaced", () => {
    const { doc, offset, ranges } = docWithRanges(withNever("$.steps.«bu<|>» == None"));
    const build = item(completionsAt(doc, offset), "build");
    expect(build?.replace).toEqual(ranges[0]);
  });

  test("a step's fields, and a gate's outcome, typed", () => {
    const step = completions("$.steps.build.<|>");
    expect(sortedLabels(step)).toEqual(["status", "attempts", "output"]);
    expect(item(step, "status")?.detail).toBe("str{'pending','running','done','failed','skipped'}");
    expect(item(step, "output")?.detail).toBe("Build | none");
    const gate = completions("$.gates.sign_off.<|>");
    expect(labels(gate)).toEqual(["outcome"]);
    expect(item(gate, "outcome")?.detail).toBe("str{'approve','revise','kill'} | none");
  });

  test("a step's output is walked by its contract; the flow's inputs by their types", () => {
    expect(labels(completions("$.steps.build.output.<|>"))).toEqual(["artifact", "checksum"]);
    const inputs = completions("$.input.<|>");
    expect(labels(inputs)).toEqual(["version"]);
    expect(item(inputs, "version")?.detail).toBe("str | none");
  });

  test("nothing under the state's leaves or an unknown scope", () => {
    expect(completions("$.flow.status.<|>")).toEqual([]);
    expect(completions("$.result.<|>")).toEqual([]);
  });

  test("leads_to's from and to are property sites too", () => {
    const text = EXAMPLE.replace(
      `to: "$.steps.build.status in ['done', 'failed']"`,
      `to: "$.gates.sign_off.<|>"`,
    );
    const { doc, offset } = docAt(text);
    expect(labels(completionsAt(doc, offset))).toEqual(["outcome"]);
  });

  test("names: builtins and keywords, and no position names (result is not bound here)", () => {
    const names = labels(completions("le<|>"));
    expect(names).toContain("len");
    expect(names).toContain("True");
    expect(names).not.toContain("result");
  });

  test("while the document is broken, ids and the state's fields still come from its text", () => {
    const { doc, offset } = docAt(`${withNever("$.gates.<|>")}  broken: [\n`);
    expect(doc.check.model).toBeNull();
    expect(labels(completionsAt(doc, offset))).toEqual(["sign_off"]);
    const flow = docAt(`${withNever("$.flow.<|>")}  broken: [\n`);
    const items = completionsAt(flow.doc, flow.offset);
    expect(sortedLabels(items)).toEqual(["status", "round"]);
    expect(item(items, "status")?.detail).toContain("'running'");
  });
});

describe("hover in property expressions", () => {
  function hover(condition: string) {
    const { doc, offset, ranges } = docWithRanges(withNever(condition));
    return { hover: hoverAt(doc, offset), range: ranges[0] };
  }

  test("a state field: the path up to it, its type and its meaning, over the segment", () => {
    const { hover: h, range } = hover("$.steps.build.«att<|>empts» > 3");
    expect(h?.range).toEqual(range);
    expect(h?.contents).toContain("```\n$.steps.build.attempts: int\n```");
    expect(h?.contents).toContain("Attempts of the step's current dispatch");
  });

  test("a step id: the step's summary", () => {
    const { hover: h, range } = hover("$.steps.«bu<|>ild».attempts > 3");
    expect(h?.range).toEqual(range);
    expect(h?.contents).toContain("```\n$.steps.build: ");
    expect(h?.contents).toContain("**step `build`** — function step → build in flow `release`");
  });

  test("a scope, a flow field and a gate outcome", () => {
    const scope = hover("$.«fl<|>ow».round > 1").hover;
    expect(scope?.contents).toContain("The run of the flow");
    const status = hover("$.flow.«sta<|>tus» == 'failed'").hover;
    expect(status?.contents).toContain("$.flow.status: str{'running','complete','failed','killed'}");
    const outcome = hover("$.gates.sign_off.«out<|>come» == 'kill'").hover;
    expect(outcome?.contents).toContain("$.gates.sign_off.outcome: str{'approve','revise','kill'} | none");
    expect(outcome?.contents).toContain("None before the first");
  });

  test("a contract field below a step's output is typed by the contract", () => {
    const { hover: h } = hover("$.steps.build.output.«arti<|>fact» != None");
    expect(h?.contents).toContain("$.steps.build.output.artifact: str");
  });

  test("a builtin call in a property is explained as anywhere else", () => {
    const { hover: h } = hover("le<|>n($.input.version) > 3");
    expect(h?.contents).toContain("len(");
  });
});

describe("signature help in property expressions", () => {
  test("a builtin call being typed shows its signature", () => {
    const { doc, offset } = docAt(withNever("len(<|>"));
    expect(signatureHelpAt(doc, offset)?.signatures.map((s) => s.label)).toEqual(["len(x, /) -> int"]);
  });
});

describe("property keys and flow", () => {
  test("a property offers its flow and the four kinds; once a kind is written, no other", () => {
    const written = docAt(EXAMPLE.replace(`    ${NEVER}\n`, `    ${NEVER}\n    <|>\n`));
    expect(written.doc.check.model).not.toBeNull();
    expect(sortedLabels(completionsAt(written.doc, written.offset))).toEqual([]);
    const noFlow = docAt(EXAMPLE.replace(`    flow: release\n    ${NEVER}\n`, `    ${NEVER}\n    <|>\n`));
    expect(sortedLabels(completionsAt(noFlow.doc, noFlow.offset))).toEqual(["flow"]);
    const empty = docAt(`${EXAMPLE}  fresh:\n    <|>\n`);
    expect(sortedLabels(completionsAt(empty.doc, empty.offset))).toEqual([
      "flow",
      "always",
      "never",
      "eventually",
      "leads_to",
    ]);
  });

  test("`flow:` offers the spec's flows", () => {
    const { doc, offset } = docAt(
      EXAMPLE.replace("  bounded_build:\n    flow: release\n", "  bounded_build:\n    flow: <|>\n"),
    );
    const items = completionsAt(doc, offset);
    expect(labels(items)).toEqual(["release"]);
    expect(item(items, "release")?.kind).toBe("flow");
  });
});
