// The structure walker (docs/reference/language.md §9.3 phase 2): checks every node of a document whose version
// is known against the declarative description (spec-schema.ts) and reports the SCHEMA-* rules.
// Per node at most one of TYPE, ENUM, MINIMUM, NON-EMPTY, PATTERN (in that order); per mapping one
// REQUIRED per missing key and one UNKNOWN-KEY per unknown key. Paths follow the reference's
// instance paths (sequence items by index, `root` for the document); ranges follow docs/reference/language.md §9.2.
import { itemRange, keyRange, type Owner, ownerRange, valueRange } from "../anchors";
import type { SourceRange } from "../base/source-range";
import type { Version } from "../base/version";
import { suggest } from "../expr/did-you-mean";
import type { Reporter } from "../report";
import type { SpecSource } from "../source";
import type { MapEntry, MapNode, SeqNode, SpecNode } from "../yaml/nodes";
import { pythonRepr } from "../yaml/repr";
import { placeOf, requiredHelp, valueHelp } from "./help";
import { conditionalRequired, type ResolvedShape, resolveShape } from "./resolve-shape";
import { SCHEMA_KEY_NOT_STRING } from "./rules/SCHEMA-KEY-NOT-STRING";
import { SCHEMA_NON_EMPTY } from "./rules/SCHEMA-NON-EMPTY";
import { SCHEMA_REQUIRED } from "./rules/SCHEMA-REQUIRED";
import { SCHEMA_TYPE } from "./rules/SCHEMA-TYPE";
import { SCHEMA_UNKNOWN_KEY } from "./rules/SCHEMA-UNKNOWN-KEY";
import type { ShapeName, ValueSpec } from "./spec-schema-types";
import { scalarProblem, type ValueRule } from "./value-problem";

/** How a node is held: the anchors of its value (`V`) and of a missing key (`O`) derive from it. */
export type Holder =
  | { readonly kind: "root" }
  | { readonly kind: "entry"; readonly entry: MapEntry }
  | { readonly kind: "item"; readonly seq: SeqNode; readonly index: number; readonly seqEntry: MapEntry };

/** What the walk found, for the model builder. */
export interface StructureFindings {
  /** Nodes that got a value diagnostic (TYPE/ENUM/MINIMUM/NON-EMPTY/PATTERN; for KEY-NOT-STRING the mapping). */
  readonly invalid: Set<SpecNode>;
  /** `invalid` plus every node that contains one of them (a field is valid when its value is not tainted). */
  readonly tainted: Set<SpecNode>;
}

/** Deeper than any spec needs; the YAML loader already bounds nesting, this keeps the walk finite. */
const MAX_DEPTH = 5000;

export class StructureWalker {
  readonly findings: StructureFindings = { invalid: new Set(), tainted: new Set() };
  /** The nodes on the current path (their own mapping is tainted when a descendant is invalid). */
  private readonly ancestors: SpecNode[] = [];
  private readonly onPath = new Set<SpecNode>();

  constructor(
    private readonly src: SpecSource,
    private readonly reporter: Reporter,
    private readonly version: Version,
  ) {}

  /** Marks `node` as invalid and every node on the current path as containing an invalid node. */
  markInvalid(node: SpecNode): void {
    this.findings.invalid.add(node);
    this.findings.tainted.add(node);
    for (const a of this.ancestors) this.findings.tainted.add(a);
  }

  /** Checks one node against a value spec. `path` is the node's instance path (segments). */
  value(node: SpecNode, spec: ValueSpec, path: readonly string[], holder: Holder): void {
    if (this.onPath.has(node) || this.ancestors.length > MAX_DEPTH) return; // alias cycle / absurd depth
    switch (spec.kind) {
      case "version":
        break; // checked by the version lookup before the walk
      case "any":
        this.anyValue(node, path);
        break;
      case "freeMapping":
        if (this.expectKind(node, "map", path, holder, spec)) this.anyValue(node, path);
        break;
      case "shape":
        if (node.kind === "map") this.shape(node, spec.shape, path, holder);
        else if (spec.orTypeName === true && node.kind === "scalar" && typeof node.value === "string") break;
        else this.expectKind(node, "map", path, holder, spec);
        break;
      case "mapOf":
        if (node.kind === "map") this.mapOf(node, spec.value, path);
        else this.expectKind(node, "map", path, holder, spec);
        break;
      case "seqOf":
        if (node.kind === "seq") this.seqOf(node, spec, path, holder);
        else this.expectKind(node, "seq", path, holder, spec);
        break;
      case "countOrSeqOf":
        // A sequence is checked as a non-empty list of items; anything else as the count.
        if (node.kind === "seq")
          this.seqOf(node, { kind: "seqOf", item: spec.item, nonEmpty: true }, path, holder);
        else this.scalarValue(node, spec, path, holder);
        break;
      case "stringOrSeqOf":
        // The reference's `oneOf`: a list with an item that is not a valid `item` fails both
        // branches, and jsonschema reports the list itself, not the item.
        if (node.kind === "seq") {
          const bad = node.items.some((item) => scalarProblem(item, spec.item, this.version) !== null);
          if (bad) {
            const message = SCHEMA_TYPE.noAlternativeMessage(pythonRepr(node));
            this.invalidValue(
              SCHEMA_TYPE,
              message,
              node,
              path,
              holder,
              this.help(SCHEMA_TYPE.code, spec, node, holder),
            );
          }
        } else this.scalarValue(node, spec, path, holder);
        break;
      default:
        this.scalarValue(node, spec, path, holder);
    }
  }

  private scalarValue(node: SpecNode, spec: ValueSpec, path: readonly string[], holder: Holder): void {
    const problem = scalarProblem(node, spec, this.version);
    if (problem !== null) {
      const help = problem.suggestion ?? this.help(problem.rule.code, spec, node, holder);
      this.invalidValue(problem.rule, problem.message, node, path, holder, help);
    }
  }

  /** A mapping of a known shape: keys, then required keys. */
  shape(map: MapNode, name: ShapeName, path: readonly string[], holder: Holder): void {
    const shape = resolveShape(name, this.version);
    this.enter(map);
    for (const entry of map.entries) {
      const key = entry.name;
      if (key === null) {
        this.keyNotString(map, entry, path);
        continue;
      }
      const spec = shape.keys.get(key);
      if (spec !== undefined) this.value(entry.value, spec.value, [...path, key], { kind: "entry", entry });
      else if (shape.spec.otherKeys === "any") this.anyValue(entry.value, [...path, key]);
      else this.unknownKey(map, entry, key, shape, path);
    }
    this.leave(map);
    this.required(map, shape, path, holder);
  }

  private mapOf(map: MapNode, value: ValueSpec, path: readonly string[]): void {
    this.enter(map);
    for (const entry of map.entries) {
      if (entry.name === null) this.keyNotString(map, entry, path);
      else this.value(entry.value, value, [...path, entry.name], { kind: "entry", entry });
    }
    this.leave(map);
  }

  private seqOf(
    seq: SeqNode,
    spec: ValueSpec & { kind: "seqOf" },
    path: readonly string[],
    holder: Holder,
  ): void {
    if (spec.nonEmpty === true && seq.items.length === 0) {
      const help = this.help(SCHEMA_NON_EMPTY.code, spec, seq, holder);
      this.invalidValue(SCHEMA_NON_EMPTY, SCHEMA_NON_EMPTY.message(pythonRepr(seq)), seq, path, holder, help);
      return;
    }
    const seqEntry = holder.kind === "entry" ? holder.entry : null;
    this.enter(seq);
    seq.items.forEach((item, index) => {
      const itemHolder: Holder = seqEntry === null ? holder : { kind: "item", seq, index, seqEntry };
      this.value(item, spec.item, [...path, String(index)], itemHolder);
    });
    this.leave(seq);
  }

  /** Free-form content: only its mapping keys are checked (every key in a spec must be a string). */
  private anyValue(root: SpecNode, path: readonly string[]): void {
    // Iterative, so that deep free-form values (descriptions, defaults, output_schema) cannot
    // exhaust the stack; the entries' own paths are not needed (diagnostics name the mapping).
    const stack: { node: SpecNode; path: readonly string[]; depth: number }[] = [
      { node: root, path, depth: 0 },
    ];
    const seen = new Set<SpecNode>();
    while (stack.length > 0) {
      const top = stack.pop();
      if (top === undefined) break;
      const { node, depth } = top;
      if (node.kind === "scalar" || seen.has(node) || this.onPath.has(node) || depth > MAX_DEPTH) continue;
      seen.add(node);
      const children: { node: SpecNode; path: readonly string[]; depth: number }[] = [];
      if (node.kind === "map") {
        for (const entry of node.entries) {
          if (entry.name === null) this.keyNotStringAt(node, entry, top.path, [root, node]);
          else children.push({ node: entry.value, path: [...top.path, entry.name], depth: depth + 1 });
        }
      } else {
        node.items.forEach((item, i) => {
          children.push({ node: item, path: [...top.path, String(i)], depth: depth + 1 });
        });
      }
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (child !== undefined) stack.push(child);
      }
    }
  }

  /** SCHEMA-TYPE for a mapping or sequence kind; true when the node has the kind. */
  private expectKind(
    node: SpecNode,
    kind: "map" | "seq",
    path: readonly string[],
    holder: Holder,
    spec: ValueSpec,
  ): boolean {
    if (node.kind === kind) return true;
    const type = kind === "map" ? "object" : "array";
    const help = this.help(SCHEMA_TYPE.code, spec, node, holder);
    this.invalidValue(SCHEMA_TYPE, SCHEMA_TYPE.message(pythonRepr(node), [type]), node, path, holder, help);
    return false;
  }

  /** What to write instead of an invalid value (help.ts). */
  private help(code: string, spec: ValueSpec, node: SpecNode, holder: Holder): string {
    const key =
      holder.kind === "entry"
        ? (holder.entry.name ?? "")
        : holder.kind === "item"
          ? (holder.seqEntry.name ?? "")
          : "";
    return valueHelp(code, spec, key, holder.kind === "item", node, this.src.text);
  }

  /** Reports a value diagnostic at `V` (start-line rule applied by the anchors). */
  invalidValue(
    rule: ValueRule,
    message: string,
    node: SpecNode,
    path: readonly string[],
    holder: Holder,
    suggestion: string,
  ): void {
    this.markInvalid(node);
    this.reporter.report(rule, {
      message,
      path: pathText(path),
      range: this.valueAnchor(node, holder),
      suggestion,
    });
  }

  valueAnchor(node: SpecNode, holder: Holder): SourceRange {
    switch (holder.kind) {
      case "root":
        return node.range;
      case "entry":
        return valueRange(this.src, holder.entry);
      case "item":
        return itemRange(this.src, holder.seqEntry, holder.index);
    }
  }

  private keyNotString(map: MapNode, entry: MapEntry, path: readonly string[]): void {
    this.keyNotStringAt(map, entry, path, [map]);
  }

  private keyNotStringAt(
    map: MapNode,
    entry: MapEntry,
    path: readonly string[],
    within: readonly SpecNode[],
  ): void {
    this.markInvalid(map);
    for (const n of within) this.findings.tainted.add(n);
    this.reporter.report(SCHEMA_KEY_NOT_STRING, {
      message: SCHEMA_KEY_NOT_STRING.message(pythonRepr(entry.key)),
      path: pathText(path),
      range: keyRange(entry),
      suggestion: SCHEMA_KEY_NOT_STRING.suggestion,
    });
  }

  private unknownKey(
    map: MapNode,
    entry: MapEntry,
    key: string,
    shape: ResolvedShape,
    path: readonly string[],
  ): void {
    // A key of a later version is no typo (`require` is not a misspelt `retries`).
    const since = shape.laterKeys.get(key);
    const match = since === undefined ? suggest(key, shape.keys.keys()) : null;
    let suggestion: string = SCHEMA_UNKNOWN_KEY.removeSuggestion;
    let fix: { description: string; edits: { range: SourceRange; newText: string }[] } | undefined;
    if (since !== undefined) {
      suggestion = SCHEMA_UNKNOWN_KEY.laterVersionSuggestion(key, since);
    } else if (match !== null) {
      suggestion = `Did you mean '${match.candidate}'?`;
      // Renaming is certain only for a unique match that does not collide with a present key.
      if (match.unique && map.get(match.candidate) === undefined) {
        fix = {
          description: `Rename '${key}' to '${match.candidate}'`,
          edits: [{ range: keyRange(entry), newText: match.candidate }],
        };
      }
    }
    this.reporter.report(SCHEMA_UNKNOWN_KEY, {
      message: SCHEMA_UNKNOWN_KEY.message(key),
      path: pathText(path),
      range: keyRange(entry),
      suggestion,
      ...(fix !== undefined ? { fix } : {}),
    });
  }

  private required(map: MapNode, shape: ResolvedShape, path: readonly string[], holder: Holder): void {
    const list = [...shape.required];
    const special = new Set<string>();
    for (const c of conditionalRequired(shape)) {
      const when = map.get(c.when.key)?.value;
      const v = when?.kind === "scalar" ? when.value : undefined;
      if (typeof v === "string" && c.when.in.includes(v) && !list.includes(c.key)) {
        list.push(c.key);
        special.add(c.key);
      }
    }
    // A missing version is SCHEMA-VERSION-UNKNOWN (check-structure.ts), reported before the walk.
    const missing = list.filter((k) => map.get(k) === undefined && !(k === "version" && path.length === 0));
    if (missing.length === 0) return;
    const owner: Owner =
      holder.kind === "entry"
        ? { kind: "entry", entry: holder.entry }
        : holder.kind === "item"
          ? { kind: "item", seq: holder.seq, index: holder.index }
          : { kind: "root" };
    const range = ownerRange(this.src, owner);
    const fnName = holder.kind === "entry" ? holder.entry.name : null;
    for (const key of missing) {
      // 0.2 infer/compute functions keep the reference's wording for a missing output.
      const message =
        special.has(key) && shape.spec.name === "function" && fnName !== null
          ? SCHEMA_REQUIRED.functionOutputMessage(fnName)
          : SCHEMA_REQUIRED.message(key);
      this.reporter.report(SCHEMA_REQUIRED, {
        message,
        path: pathText(path),
        range,
        suggestion: requiredHelp(missing, shape.keys, placeOf(shape.spec.name, path, map)),
      });
    }
  }

  private enter(node: SpecNode): void {
    this.ancestors.push(node);
    this.onPath.add(node);
  }

  private leave(node: SpecNode): void {
    this.ancestors.pop();
    this.onPath.delete(node);
  }
}

/** The dotted SCHEMA path: `root` for the document. */
function pathText(path: readonly string[]): string {
  return path.length === 0 ? "root" : path.join(".");
}
