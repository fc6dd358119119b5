// The fast path of the YAML front end: one document's CST (yaml's Parser tokens) → the same
// SpecNode tree TreeBuilder (build.ts) makes from the composed Document, without composing one.
// It follows the composer's algorithms (yaml 2.9: compose-doc, compose-node, resolve-block-map,
// resolve-block-seq, resolve-flow-collection) for the common shapes — block and flow mappings and
// sequences, every scalar style, comments, a leading `---`, anchors and aliases in block context —
// and declines (returns null, having reported nothing) wherever the composer would report an error
// or a warning, and for whatever it does not reproduce: tags, explicit `?` keys, merge keys,
// non-scalar keys, `key: value` pairs inside flow sequences, anchors and aliases inside flow
// collections, alias expansion near the limit, scalars PyYAML cannot construct. load.ts then runs
// the composer path unchanged. test/checker/yaml/fast-path.test.ts compares both on every input.
import { CST } from "yaml";
import type { SourceRange } from "../base/source-range";
import type { Reporter, ReportInput } from "../report";
import { blockEnd, STYLES } from "./build";
import { DECLINE, decline, emptyScalarPosition, type Props, resolveEnd, resolveProps } from "./cst-props";
import { assembleEntries, entryOf } from "./map-entries";
import type { MapEntry, SpecNode, YamlScalar } from "./nodes";
import { resolvePlain } from "./resolve-plain";
import { ALIAS_LIMIT } from "./rules/YAML-ALIAS-LIMIT";
import { YAML_DUPLICATE_KEY } from "./rules/YAML-DUPLICATE-KEY";
import { emptyScalar, LoadedMap, LoadedScalar, LoadedSeq } from "./spec-nodes";

/** A built node: where it is written here (TreeBuilder's Built) and the composer's range[2]. */
interface Built {
  readonly node: SpecNode;
  readonly start: number;
  readonly end: number;
  /** The composer's `range[2]` (after trailing comments): the next item's offset. */
  readonly after: number;
}

interface AnchorState {
  readonly node: SpecNode | null;
  readonly weight: number;
}

/** What a released CST item is replaced by (an item with nothing in it). */
const RELEASED: { start: CST.SourceToken[] } = { start: [] };

/** yaml's onError for scalar resolution: any error or warning declines. */
const onScalarError = (): void => decline();

/**
 * The tree of one document, or null when the fast path declines (nothing reported then). On
 * success the YAML-DUPLICATE-KEY warnings are reported, in TreeBuilder's order. With `release`,
 * every collection item of the CST is dropped from its collection as soon as it is read, so that
 * the CST of a big document is freed while its tree grows instead of both being alive at once
 * (the CST takes about twice the tree's memory); `doc` is then unusable, also after a decline.
 */
export function buildFromCst(
  text: string,
  doc: CST.Document,
  reporter: Reporter,
  release = false,
): SpecNode | null {
  const builder = new CstBuilder(text, release);
  let root: SpecNode;
  try {
    root = builder.document(doc);
  } catch (e) {
    if (e === DECLINE) return null;
    throw e;
  }
  for (const report of builder.duplicates) reporter.report(YAML_DUPLICATE_KEY, report);
  return root;
}

class CstBuilder {
  readonly duplicates: ReportInput[] = [];
  private readonly anchors = new Map<string, AnchorState>();
  private expansions = 0;

  constructor(
    private readonly text: string,
    private readonly release: boolean,
  ) {}

  document(doc: CST.Document): SpecNode {
    const { start, value, end } = doc;
    const props = resolveProps(start, {
      indicator: "doc-start",
      next: value ?? end?.[0],
      offset: doc.offset,
      parentIndent: 0,
      startOnNewline: true,
    });
    if (props.found !== null && value !== undefined) {
      if ((value.type === "block-map" || value.type === "block-seq") && !props.hasNewline) decline();
    }
    const contents =
      value !== undefined ? this.node(value, props, false) : this.empty(props.end, start, props);
    resolveEnd(end, contents.after, false);
    const root = contents.node;
    return root;
  }

  /** compose-node.js: a node with its properties (an anchor) already resolved. */
  private node(token: CST.Token, props: Props, isKey: boolean): Built {
    if (token.type === "alias") {
      if (props.anchor !== null) decline();
      return this.alias(token);
    }
    const anchor = props.anchor === null ? null : props.anchor.source.substring(1);
    if (anchor === null) return this.bare(token, props, isKey);
    if (token.type === "block-seq") {
      const nl = props.newlineAfterProp;
      if (nl === null || nl.offset < (props.anchor as CST.SourceToken).offset) decline();
    }
    const before = this.expansions;
    this.anchors.set(anchor, { node: null, weight: 0 });
    const built = this.bare(token, props, isKey);
    this.anchors.set(anchor, { node: built.node, weight: this.expansions - before });
    return built;
  }

  private bare(token: CST.Token, props: Props, isKey: boolean): Built {
    switch (token.type) {
      case "scalar":
      case "single-quoted-scalar":
      case "double-quoted-scalar":
      case "block-scalar":
        return this.scalar(token, isKey);
      case "block-map":
        return this.blockMap(token);
      case "block-seq":
        return this.blockSeq(token);
      case "flow-collection":
        if (props.anchor !== null) decline();
        return this.flow(token);
      default:
        return decline();
    }
  }

  /** compose-node.js composeEmptyNode, as TreeBuilder sees it (a plain null scalar). */
  private empty(offset: number, before: readonly CST.SourceToken[] | undefined, props: Props): Built {
    if (props.anchor !== null) decline();
    const at = emptyScalarPosition(offset, before);
    return { node: emptyScalar(this.text, at), start: at, end: at, after: props.comment ? props.end : at };
  }

  private alias(token: CST.FlowScalar): Built {
    const name = token.source.substring(1);
    if (name === "" || name.endsWith(":")) decline();
    const start = token.offset;
    const end = start + token.source.length;
    const after = resolveEnd(token.end, end, true);
    const state = this.anchors.get(name);
    if (state === undefined || state.node === null) decline();
    const cost = 1 + state.weight;
    // The limit is reported by the composer path (YAML-ALIAS-LIMIT).
    if (this.expansions + cost > ALIAS_LIMIT) decline();
    this.expansions += cost;
    return { node: state.node, start, end, after };
  }

  /** TreeBuilder.scalar without a tag. */
  private scalar(token: CST.FlowScalar | CST.BlockScalar, isKey: boolean): Built {
    const resolved = CST.resolveAsScalar(token, true, onScalarError);
    if (resolved === null) return decline();
    const [start, valueEnd, after] = resolved.range;
    const style = STYLES[resolved.type ?? "PLAIN"] ?? "plain";
    const loaded = resolved.value;
    const block = token.type === "block-scalar" ? token : undefined;
    const end = block === undefined ? valueEnd : blockEnd(this.text, block, start, valueEnd);
    let value: YamlScalar = loaded;
    if (style === "plain") {
      const resolution = resolvePlain(loaded);
      if (resolution.kind === "value") value = resolution.value;
      else if (resolution.kind !== "value-key" || !isKey) decline(); // `<<`, `=` as a value, errors
    }
    const node = new LoadedScalar({ start, end }, value, style, null, this.text, valueEnd, loaded, block);
    return { node, start, end, after };
  }

  /** A mapping key: a scalar on one line (collections and aliases as keys decline). */
  private key(token: CST.Token | null | undefined, props: Props): Built {
    if (
      token === null ||
      token === undefined ||
      (token.type !== "scalar" &&
        token.type !== "single-quoted-scalar" &&
        token.type !== "double-quoted-scalar")
    )
      return decline();
    return this.node(token, props, true);
  }

  /** The map's entries and YAML-DUPLICATE-KEY reports (in TreeBuilder's order: after its children). */
  private mapNode(range: SourceRange, flow: boolean, own: MapEntry[], keys: SourceRange[]): LoadedMap {
    const { entries, duplicates } = assembleEntries([], own, keys);
    for (const report of duplicates) this.duplicates.push(report);
    return new LoadedMap(range, flow, entries);
  }

  /** resolve-block-map.js + TreeBuilder.map. */
  private blockMap(bm: CST.BlockMap): Built {
    const own: MapEntry[] = [];
    const keys: SourceRange[] = [];
    let offset = bm.offset;
    let commentEnd: number | null = null;
    const start = bm.offset;
    let end = start;
    const bmItems = bm.items;
    for (let i = 0; i < bmItems.length; i++) {
      const { start: before, key, sep, value } = bmItems[i] as (typeof bmItems)[number];
      if (this.release) bmItems[i] = RELEASED;
      const keyProps = resolveProps(before, {
        indicator: "explicit-key-ind",
        next: key ?? sep?.[0],
        offset,
        parentIndent: bm.indent,
        startOnNewline: true,
      });
      if (keyProps.found !== null) decline(); // an explicit key
      if (key !== null && key !== undefined && "indent" in key && key.indent !== bm.indent) decline();
      if (keyProps.anchor === null && sep === undefined) {
        if (key !== null && key !== undefined) decline();
        commentEnd = keyProps.end;
        continue;
      }
      if (keyProps.newlineAfterProp !== null || containsNewline(key)) decline();
      const k = this.key(key, keyProps);
      const valueProps = resolveProps(sep ?? [], {
        indicator: "map-value-ind",
        next: value,
        offset: k.after,
        parentIndent: bm.indent,
        startOnNewline: false,
      });
      offset = valueProps.end;
      if (valueProps.found === null) decline();
      if (value?.type === "block-map" && !valueProps.hasNewline) decline();
      if (keyProps.start < valueProps.found.offset - 1024) decline();
      const v =
        value !== undefined ? this.node(value, valueProps, false) : this.empty(offset, sep, valueProps);
      offset = v.after;
      end = Math.max(end, k.end, v.end);
      own.push(entryOf(k, v));
      keys.push({ start: k.start, end: k.end });
    }
    if (commentEnd !== null && commentEnd !== 0 && commentEnd < offset) decline();
    const node = this.mapNode({ start, end }, false, own, keys);
    return { node, start, end, after: commentEnd ?? offset };
  }

  /** resolve-block-seq.js + TreeBuilder.seq. */
  private blockSeq(bs: CST.BlockSequence): Built {
    const items: SpecNode[] = [];
    const dashes: number[] = [];
    let offset = bs.offset;
    let commentEnd: number | null = null;
    const start = bs.offset;
    let end = start;
    const bsItems = bs.items;
    for (let i = 0; i < bsItems.length; i++) {
      const { start: before, value } = bsItems[i] as (typeof bsItems)[number];
      if (this.release) bsItems[i] = RELEASED;
      const props = resolveProps(before, {
        indicator: "seq-item-ind",
        next: value,
        offset,
        parentIndent: bs.indent,
        startOnNewline: true,
      });
      if (props.found === null) {
        if (props.anchor !== null || value !== undefined) decline();
        commentEnd = props.end;
        continue;
      }
      const built =
        value !== undefined ? this.node(value, props, false) : this.empty(props.end, before, props);
      offset = built.after;
      items.push(built.node);
      dashes.push(props.found.offset);
      end = Math.max(end, built.end);
    }
    const node = new LoadedSeq({ start, end }, false, items, dashes);
    return { node, start, end, after: commentEnd ?? offset };
  }

  /** resolve-flow-collection.js + TreeBuilder.map / seq, without pairs in sequences. */
  private flow(fc: CST.FlowCollection): Built {
    const isMap = fc.start.source === "{";
    const flow = isMap ? "flow map" : "flow sequence";
    const own: MapEntry[] = [];
    const keys: SourceRange[] = [];
    const items: SpecNode[] = [];
    const starts: number[] = [];
    let offset = fc.offset + fc.start.source.length;
    const start = fc.offset;
    let end = start;
    const count = fc.items.length;
    for (let i = 0; i < count; ++i) {
      const { start: before, key, sep, value } = fc.items[i] as CST.CollectionItem;
      if (this.release) fc.items[i] = RELEASED;
      const props = resolveProps(before, {
        flow,
        indicator: "explicit-key-ind",
        next: key ?? sep?.[0],
        offset,
        parentIndent: fc.indent,
        startOnNewline: false,
      });
      if (props.found !== null || props.anchor !== null) decline();
      if (sep === undefined && value === undefined && (key === null || key === undefined)) {
        // An empty item: only a trailing comma after the last item is accepted.
        if (i === 0 ? props.comma !== null : i < count - 1) decline();
        offset = props.end;
        continue;
      }
      if (i === 0 ? props.comma !== null : props.comma === null) decline();
      if (!isMap) {
        if (sep !== undefined || (key !== null && key !== undefined) || value === undefined) decline();
        const v = this.flowValue(value, props);
        items.push(v.node);
        starts.push(v.start);
        end = Math.max(end, v.end);
        offset = v.after;
        continue;
      }
      const k = this.key(key, props);
      const valueProps = resolveProps(sep ?? [], {
        flow,
        indicator: "map-value-ind",
        next: value,
        offset: k.after,
        parentIndent: fc.indent,
        startOnNewline: false,
      });
      if (valueProps.found === null && value !== undefined) decline();
      let v: Built | null = null;
      if (value !== undefined) v = this.flowValue(value, valueProps);
      else if (valueProps.found !== null) v = this.empty(valueProps.end, sep, valueProps);
      const valueBuilt = v ?? {
        node: emptyScalar(this.text, Math.max(0, Math.min(k.end, this.text.length))),
        start: k.end,
        end: k.end,
        after: k.end,
      };
      end = Math.max(end, k.end, valueBuilt.end);
      own.push(entryOf(k, valueBuilt));
      keys.push({ start: k.start, end: k.end });
      offset = v !== null ? v.after : valueProps.end;
    }
    const [close, ...rest] = fc.end;
    if (close?.source !== (isMap ? "}" : "]")) decline();
    const closeEnd = close.offset + close.source.length;
    const after = rest.length > 0 ? resolveEnd(rest, closeEnd, true) : closeEnd;
    end = Math.max(end, closeEnd);
    const range = { start, end };
    const node = isMap ? this.mapNode(range, true, own, keys) : new LoadedSeq(range, true, items, starts);
    return { node, start, end, after };
  }

  /** A value inside a flow collection: a scalar or a flow collection (aliases decline). */
  private flowValue(token: CST.Token, props: Props): Built {
    if (token.type === "block-map" || token.type === "block-seq" || token.type === "alias") decline();
    return this.node(token, props, false);
  }
}

/** yaml's util-contains-newline.js, for scalar keys (other keys decline anyway). */
function containsNewline(key: CST.Token | null | undefined): boolean {
  if (key === null || key === undefined) return false;
  if (key.type !== "scalar" && key.type !== "single-quoted-scalar" && key.type !== "double-quoted-scalar")
    return true;
  if (key.source.includes("\n")) return true;
  if (key.end !== undefined) for (const t of key.end) if (t.type === "newline") return true;
  return false;
}
