// docs/reference/format.md, the format reference: every key of every mapping kind of the spec format with
// its type, whether it is required (per version), its default, its allowed values, a description
// and an example. Everything per key comes from schema/spec-schema.ts, the description the structure
// phase checks with, so the page cannot drift from the checker; test/checker/schema/format-doc.test.ts
// keeps the committed page equal to this rendering and checks every example in it. Every section
// and every key has an explicit anchor (`#step`, `#step.retries`) that does not depend on the
// heading text.

import type { Version } from "./base/version";
import { CATALOGUE } from "./catalogue";
import { ruleDocAnchor } from "./rule-docs";
import { forVersion, resolveShape } from "./schema/resolve-shape";
import { SCHEMA_UNKNOWN_KEY } from "./schema/rules/SCHEMA-UNKNOWN-KEY";
import { SHAPES, VERSIONS } from "./schema/spec-schema";
import type { KeySpec, ShapeName, ShapeSpec, ValueSpec } from "./schema/spec-schema-types";

/** The format reference as the repository publishes it (next to docs/reference/rules.md). */
const FORMAT_DOC_URL = "https://github.com/stratumc/stratumc/blob/main/docs/reference/format.md";

/** The anchor of a mapping kind's section, or of one of its keys. */
export function formatDocAnchor(shape: ShapeName, key?: string): string {
  const anchor = SHAPES[shape].anchor;
  return key === undefined ? anchor : `${anchor}.${key}`;
}

/** The address of a mapping kind's section of docs/reference/format.md, or of one of its keys. */
export function formatDocHref(shape: ShapeName, key?: string): string {
  return `${FORMAT_DOC_URL}#${formatDocAnchor(shape, key)}`;
}

/** The smallest useful spec: the first example of the page (it checks clean). */
export const MINIMAL_EXAMPLE = `version: "0.2"

contracts:
  Summary:
    text: {type: string}

functions:
  summarize:
    mode: infer
    intent: "Summarize the text in three sentences"
    input: {text: {type: string}}
    output: Summary
    ensure: ["len(result.text) > 0"]

flows:
  main:
    input: {text: {type: string}}
    steps:
      - id: summarize
        function: summarize
        inputs: {text: $.input.text}`;

/** Every step kind and most 0.2 keys in one spec (it checks clean). */
export const TOUR_EXAMPLE = `version: "0.2"

workflow:
  name: release-notes
  description: "Draft release notes and have a human approve them"
  input:
    since: {type: string, required: true}

contracts:
  Change:
    title: {type: string}
    kind: {type: string, values: [feature, fix, chore]}
  Changes:
    changes: {type: array, items: {type: Change}}
  Notes:
    text: {type: string}
    words: {type: integer, required: false}

functions:
  collect:
    mode: compute
    intent: "List the changes merged since the given tag"
    input: {since: {type: string}}
    output: Changes
    retries: 2
  sign_off:
    mode: gate
    timeout: 86400

flows:
  polish:
    input: {draft: {type: string}}
    steps:
      - id: polish
        intent: "Fix grammar and tone without changing the content"
        inputs: {draft: $.input.draft}
        output_contract: Notes
        ensure: ["len(result.text) > 0"]

  release-notes:
    input: {since: {type: string}}
    output: Notes
    max_rounds: 3
    steps:
      - id: collect
        function: collect
        inputs: {since: $.input.since}
        max_iterations: 3
        exit_criterion: "new_count == 0"
        accumulate: "result.changes"
        accumulate_key: "item.title"
      - id: draft
        intent: "Write release notes for these changes"
        agent: writer
        inputs: {changes: $.steps.collect.output.changes}
        output_contract: Notes
        retries: 2
        output_schema: {type: object, required: [text]}
      - id: polish
        flow: polish
        inputs: {draft: $.steps.draft.output.text}
      - id: approve
        function: sign_off
        on_approve: null
        on_revise: draft
        on_kill: null`;

function code(text: string): string {
  return `\`${text}\``;
}

function link(shape: ShapeName, key?: string): string {
  const spec = SHAPES[shape];
  return key === undefined
    ? `[${spec.title}](#${spec.anchor})`
    : `[${code(key)}](#${formatDocAnchor(shape, key)})`;
}

function ruleLink(rule: string): string {
  return `[${rule}](rules.md#${ruleDocAnchor(rule)})`;
}

/** The versions in which a mapping kind can occur (`workflow` and its inputs: 0.2). */
function shapeVersions(name: ShapeName): readonly Version[] {
  return VERSIONS.filter((version) => {
    const seen = new Set<ShapeName>();
    const visit = (shape: ShapeName): void => {
      if (seen.has(shape)) return;
      seen.add(shape);
      for (const key of resolveShape(shape, version).keys.values()) shapesIn(key.value).forEach(visit);
    };
    visit("root");
    return seen.has(name);
  });
}

/** The versions in which a key of a mapping kind exists. */
function versionsOf(name: ShapeName, key: KeySpec): readonly Version[] {
  return shapeVersions(name).filter((v) => key.since === undefined || key.since <= v);
}

/** ` (0.2)` after a key that is newer than its mapping kind. */
function sinceMark(name: ShapeName, key: KeySpec): string {
  const first = versionsOf(name, key)[0];
  return first !== undefined && first !== shapeVersions(name)[0] ? ` (${first})` : "";
}

/** Diagnostic codes in a text as links into rules.md. */
function linkCodes(text: string): string {
  return text.replace(/\b[A-Z]+(?:-[A-Z0-9]+)+\b/g, (c) => (CATALOGUE.has(c) ? ruleLink(c) : c));
}

/** One text for all versions when they agree, else `0.1: … · 0.2: …`. */
function perVersion(versions: readonly Version[], text: (v: Version) => string): string {
  const texts = versions.map(text);
  if (texts.every((t) => t === texts[0])) return texts[0] ?? "";
  return versions.map((v, i) => `${v}: ${texts[i]}`).join(" · ");
}

function typeText(spec: ValueSpec, nested = false): string {
  switch (spec.kind) {
    case "version":
      return "string";
    case "string":
      return `string${spec.nonEmpty === true ? ", not empty" : ""}`;
    case "nullableString":
      return "string or null";
    case "integer":
      return `integer ≥ ${spec.minimum}`;
    case "number":
      return `number ≥ ${spec.minimum}`;
    case "nullableInteger":
      return `integer ≥ ${spec.minimum}, or null`;
    case "enumOrInteger":
      return `string, or integer ≥ ${spec.minimum}`;
    case "countOrSeqOf":
      return `integer ≥ ${spec.minimum}, or list of ${typeText(spec.item, true)}, not empty`;
    case "stringOrSeqOf":
      return `string, or list of ${typeText(spec.item, true)}`;
    case "boolean":
      return "boolean";
    case "enum":
      return "string";
    case "any":
      return "any value";
    case "freeMapping":
      return "mapping (free-form)";
    case "shape": {
      const shape = nested ? link(spec.shape) : `mapping (${link(spec.shape)})`;
      // The shorthand `items: <type>` for `items: {type: <type>}`.
      return "orTypeName" in spec && spec.orTypeName === true
        ? `${shape}, or a type name as a string`
        : shape;
    }
    case "mapOf":
      return `mapping: ${spec.valueTitle} name → ${typeText(spec.value, true)}`;
    case "seqOf":
      return `list of ${typeText(spec.item, true)}${spec.nonEmpty === true ? ", not empty" : ""}`;
  }
}

function allowedText(key: KeySpec, versions: readonly Version[]): string | null {
  const spec = key.value;
  switch (spec.kind) {
    case "version":
      return `${VERSIONS.map((v) => code(`"${v}"`)).join(", ")} (quoted: an unquoted 0.2 is a number)`;
    case "enum":
      return perVersion(versions, (v) => forVersion(spec.values, v).map(code).join(", "));
    case "enumOrInteger":
      return `${spec.values.map(code).join(", ")}, or an integer ≥ ${spec.minimum}`;
    case "string":
      return spec.pattern === undefined ? null : `strings matching ${code(spec.pattern)}`;
    default:
      return null;
  }
}

function requiredText(name: ShapeName, key: KeySpec, versions: readonly Version[]): string {
  return perVersion(versions, (v) => {
    const shape = resolveShape(name, v);
    if (shape.required.includes(key.name)) return "yes";
    const conditions = (shape.spec.requiredIf ?? []).filter(
      (c) => c.key === key.name && c.versions.includes(v),
    );
    if (conditions.length === 0) return "no";
    return conditions
      .map((c) => `when ${code(c.when.key)} is ${c.when.in.map(code).join(" or ")}`)
      .join("; ");
  });
}

/** Whether a key must be written in every version it exists in. */
function alwaysRequired(name: ShapeName, key: KeySpec): boolean {
  return versionsOf(name, key).every((v) => resolveShape(name, v).required.includes(key.name));
}

/** The mapping kinds a value spec contains (through mappings and lists). */
function shapesIn(spec: ValueSpec): ShapeName[] {
  switch (spec.kind) {
    case "shape":
      return [spec.shape];
    case "mapOf":
      return shapesIn(spec.value);
    case "seqOf":
      return shapesIn(spec.item);
    default:
      return [];
  }
}

/** The YAML paths of a value spec's mapping kinds below `prefix`: `[shape, path]` pairs. */
function pathsIn(spec: ValueSpec, prefix: string): [ShapeName, string][] {
  switch (spec.kind) {
    case "shape":
      return [[spec.shape, prefix]];
    case "mapOf":
      return pathsIn(spec.value, `${prefix}.<${spec.valueTitle}>`);
    case "seqOf":
      return pathsIn(spec.item, `${prefix}[]`);
    default:
      return [];
  }
}

/** Where each mapping kind occurs in a document (every path, recursion cut at the first repeat). */
function locations(): Map<ShapeName, string[]> {
  const out = new Map<ShapeName, string[]>();
  const visit = (name: ShapeName, path: string, onPath: readonly ShapeName[]): void => {
    const list = out.get(name) ?? [];
    list.push(path);
    out.set(name, list);
    if (onPath.includes(name)) return;
    for (const key of SHAPES[name].keys) {
      for (const [shape, sub] of pathsIn(key.value, path === "" ? key.name : `${path}.${key.name}`)) {
        visit(shape, sub, [...onPath, name]);
      }
    }
  };
  visit("root", "", []);
  return out;
}

function keyTable(shape: ShapeSpec): string[] {
  const rows = shape.keys.map((key) => {
    const versions = versionsOf(shape.name, key);
    const since = sinceMark(shape.name, key);
    const type =
      key.value.kind === "enum"
        ? `${typeText(key.value)}: ${allowedText(key, versions)}`
        : typeText(key.value);
    return `| ${link(shape.name, key.name)}${since} | ${type} | ${requiredText(shape.name, key, versions)} | ${linkCodes(key.default ?? "—")} |`;
  });
  return ["| key | type | required | default |", "|---|---|---|---|", ...rows];
}

function keyEntry(shape: ShapeSpec, key: KeySpec): string[] {
  const versions = versionsOf(shape.name, key);
  const allowed = allowedText(key, versions);
  const out = [`<a id="${formatDocAnchor(shape.name, key.name)}"></a>`, "", `### ${code(key.name)}`, ""];
  out.push(linkCodes(key.description), "");
  out.push(`- type: ${typeText(key.value)}`);
  if (allowed !== null) out.push(`- allowed values: ${allowed}`);
  out.push(`- required: ${requiredText(shape.name, key, versions)}`);
  out.push(`- default: ${linkCodes(key.default ?? "— (always required)")}`);
  const since = sinceMark(shape.name, key);
  out.push(`- versions: ${versions.join(" and ")}${since === "" ? "" : " (an unknown key in 0.1)"}`);
  out.push("", "```yaml", key.example, "```", "");
  return out;
}

function otherKeysText(shape: ShapeSpec): string {
  const others =
    shape.otherKeys === "error"
      ? `Any other key is an error (${ruleLink(SCHEMA_UNKNOWN_KEY.code)}).`
      : "Other keys are allowed.";
  return others;
}

function section(shape: ShapeSpec, where: readonly string[], usedBy: readonly string[]): string[] {
  const versions = shapeVersions(shape.name);
  const only = versions.length < VERSIONS.length ? ` Version ${versions.join(", ")} only.` : "";
  const out = [`<a id="${shape.anchor}"></a>`, "", `## ${shape.title}`, "", shape.description + only, ""];
  if (shape.name === "root") out.push("Where: the document itself.");
  else out.push(`Where in a spec: ${where.map(code).join(", ")} (the value of ${usedBy.join(", ")}).`);
  out.push("", otherKeysText(shape), "", ...keyTable(shape), "");
  for (const key of shape.keys) out.push(...keyEntry(shape, key));
  return out;
}

/** The text of docs/reference/format.md. */
export function renderFormatDoc(): string {
  const shapes = Object.values(SHAPES);
  const where = locations();
  const usedBy = new Map<ShapeName, string[]>();
  for (const shape of shapes) {
    for (const key of shape.keys) {
      for (const target of new Set(shapesIn(key.value))) {
        const list = usedBy.get(target) ?? [];
        list.push(
          shape.name === "root"
            ? link(shape.name, key.name)
            : `${link(shape.name, key.name)} of a ${link(shape.name)}`,
        );
        usedBy.set(target, list);
      }
    }
  }
  const out = [
    "# The `.stratum.yaml` format",
    "",
    "<!-- Generated from checker/schema/spec-schema.ts by scripts/gen-docs.mjs " +
      "(npm run check:generated -- --write). Do not edit by hand. -->",
    "",
    "A spec is one YAML document that declares **contracts** (the shapes of results), **functions** " +
      "(reusable step definitions), **flows** (steps in order, with their inputs, checks and routes) and, " +
      "in version 0.2, a **workflow** block that makes the file discoverable. `stratumc check` reports every " +
      "problem with its location; each diagnostic code is explained in [rules.md](rules.md).",
    "",
    "This page lists every key of every section: its type, whether it is required, the default that " +
      "applies when it is absent, its allowed values, what it means and an example. It is generated from " +
      "the description of the format the checker validates with (`stratumc schema` prints the same " +
      "description as a JSON Schema for editors), so it cannot drift from the checker. Every section and " +
      "every key has a stable anchor: `format.md#step`, `format.md#step.retries`.",
    "",
    "## A minimal spec",
    "",
    "One contract, one function, one flow with one step. Save it as `summarize.stratum.yaml` and run " +
      "`stratumc check summarize.stratum.yaml`.",
    "",
    "```yaml",
    MINIMAL_EXAMPLE,
    "```",
    "",
    "## A tour of version 0.2",
    "",
    "An iterating function step, an inline step (`intent`), a sub-flow step (`flow`), a gate step " +
      "(a `mode: gate` function with its three routes) and a `workflow` block whose name selects the entry flow.",
    "",
    "```yaml",
    TOUR_EXAMPLE,
    "```",
    "",
    "## Versions",
    "",
    '`version` selects the format: `"0.1"`, `"0.2"` or `"0.3"`, quoted. Each version is a superset of the ' +
      "one before: a key marked 0.2 below is an unknown key in a 0.1 spec, a key marked 0.3 (the decompose and " +
      "parallel_dispatch steps) an unknown key in a 0.1 or 0.2 spec, and some keys that 0.1 requires are " +
      "optional from 0.2 on (the required column says which).",
    "",
    "## Sections",
    "",
    ...shapes.map((s) => `- ${link(s.name)}: ${s.description}`),
    "",
  ];
  for (const shape of shapes) {
    out.push(...section(shape, where.get(shape.name) ?? [], usedBy.get(shape.name) ?? []));
  }
  return `${out.join("\n").trimEnd()}\n`;
}

/** Whether every key that is optional in some version documents its default (checked by the test). */
export function keysWithoutDefault(): string[] {
  const missing: string[] = [];
  for (const shape of Object.values(SHAPES)) {
    for (const key of shape.keys) {
      if (!alwaysRequired(shape.name, key) && key.default === undefined) {
        missing.push(formatDocAnchor(shape.name, key.name));
      }
    }
  }
  return missing;
}
