// The node properties of a CST item (yaml's compose/resolve-props.js for yaml 2.9, and its
// resolve-end.js), for the direct CST builder (cst-build.ts): the same walk over the same tokens,
// except that wherever the composer would report an error or a warning — and at every tag — it
// declines (throws DECLINE) so that the composer's path runs instead.
import type { CST } from "yaml";

/** Thrown by the fast path for anything it does not reproduce exactly; caught in cst-build.ts. */
export const DECLINE: unique symbol = Symbol("decline");

export function decline(): never {
  throw DECLINE;
}

export interface Props {
  readonly comma: CST.SourceToken | null;
  readonly found: CST.SourceToken | null;
  /** A comment was among the tokens. */
  readonly comment: boolean;
  readonly hasNewline: boolean;
  readonly anchor: CST.SourceToken | null;
  readonly newlineAfterProp: CST.SourceToken | null;
  readonly end: number;
  readonly start: number;
}

export interface PropsContext {
  readonly flow?: string;
  readonly indicator: "doc-start" | "explicit-key-ind" | "map-value-ind" | "seq-item-ind";
  readonly next: CST.Token | null | undefined;
  readonly offset: number;
  readonly parentIndent: number;
  readonly startOnNewline: boolean;
}

export function resolveProps(tokens: readonly CST.SourceToken[], ctx: PropsContext): Props {
  const { flow, indicator, next } = ctx;
  let atNewline = ctx.startOnNewline;
  let hasSpace = ctx.startOnNewline;
  let comment = false;
  let hasNewline = false;
  let reqSpace = false;
  let tab: CST.SourceToken | null = null;
  let anchor: CST.SourceToken | null = null;
  let newlineAfterProp: CST.SourceToken | null = null;
  let comma: CST.SourceToken | null = null;
  let found: CST.SourceToken | null = null;
  let start: number | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as CST.SourceToken;
    if (reqSpace) {
      if (token.type !== "space" && token.type !== "newline" && token.type !== "comma") decline();
      reqSpace = false;
    }
    if (tab !== null) {
      if (atNewline && token.type !== "comment" && token.type !== "newline") decline();
      tab = null;
    }
    switch (token.type) {
      case "space":
        if (
          flow === undefined &&
          (indicator !== "doc-start" || next?.type !== "flow-collection") &&
          token.source.includes("\t")
        )
          tab = token;
        hasSpace = true;
        break;
      case "comment":
        if (!hasSpace) decline();
        comment = true;
        atNewline = false;
        break;
      case "newline":
        atNewline = true;
        hasNewline = true;
        if (anchor !== null) newlineAfterProp = token;
        hasSpace = true;
        break;
      case "anchor":
        // Several anchors, `&a:` (a warning), `&` alone: the composer reports them.
        if (anchor !== null || token.source.endsWith(":") || token.source.length < 2) decline();
        anchor = token;
        start ??= token.offset;
        atNewline = false;
        hasSpace = false;
        reqSpace = true;
        break;
      case indicator:
        if (anchor !== null || found !== null) decline();
        found = token;
        atNewline = indicator === "seq-item-ind" || indicator === "explicit-key-ind";
        hasSpace = false;
        break;
      case "comma":
        if (flow !== undefined) {
          if (comma !== null) decline();
          comma = token;
          atNewline = false;
          hasSpace = false;
          break;
        }
        decline();
        break;
      default:
        // Tags (checked by the composer path), stray tokens, errors.
        decline();
    }
  }
  const last = tokens[tokens.length - 1];
  const end = last !== undefined ? last.offset + last.source.length : ctx.offset;
  if (
    reqSpace &&
    next !== null &&
    next !== undefined &&
    next.type !== "space" &&
    next.type !== "newline" &&
    next.type !== "comma" &&
    (next.type !== "scalar" || next.source !== "")
  )
    decline();
  if (
    tab !== null &&
    ((atNewline && (tab.indent as number) <= ctx.parentIndent) ||
      next?.type === "block-map" ||
      next?.type === "block-seq")
  )
    decline();
  return { comma, found, comment, hasNewline, anchor, newlineAfterProp, end, start: start ?? end };
}

/** yaml's resolve-end.js: the offset after a node's trailing tokens (comments need a space before). */
export function resolveEnd(
  end: readonly CST.SourceToken[] | undefined,
  offset: number,
  reqSpace: boolean,
): number {
  if (end === undefined) return offset;
  let hasSpace = false;
  let at = offset;
  for (let i = 0; i < end.length; i++) {
    const token = end[i] as CST.SourceToken;
    switch (token.type) {
      case "space":
      case "newline":
        hasSpace = true;
        break;
      case "comment":
        if (reqSpace && !hasSpace) decline();
        break;
      default:
        decline();
    }
    at += token.source.length;
  }
  return at;
}

/** yaml's util-empty-scalar-position.js: where the composer puts an empty node. */
export function emptyScalarPosition(offset: number, before: readonly CST.SourceToken[] | undefined): number {
  if (before === undefined) return offset;
  let at = offset;
  for (let i = before.length - 1; i >= 0; --i) {
    const token = before[i] as CST.SourceToken;
    if (token.type === "space" || token.type === "comment" || token.type === "newline") {
      at -= token.source.length;
      continue;
    }
    let j = i + 1;
    let next = before[j];
    while (next?.type === "space") {
      at += next.source.length;
      next = before[++j];
    }
    break;
  }
  return at;
}
