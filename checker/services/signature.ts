// Signature help inside the parentheses of a builtin or method call: the display signatures of the
// registry (stdlib/builtins), one per alternative (`min(iterable, ...) | min(a, b, ...)`), the
// parameter ranges inside each label, and the parameter the cursor is on (by commas at the call's
// level, or by `name=` for keyword arguments). Method receivers are resolved by static type.
import type { IToken } from "chevrotain";
import type { Expr } from "../../grammar/ast";
import * as T from "../../grammar/tokens";
import { walk } from "../../grammar/walk";
import { BUILTINS } from "../../stdlib/builtins/registry";
import { ANY, type Type } from "../../stdlib/types/type";
import { methodsNamed } from "./completion-members";
import { exprSiteOf, repairedTree, siteEnvironment, toExprOffset } from "./context-expr";
import { yamlCursorAt } from "./cursor";
import type { DocView } from "./cursor-view";
import type { SignatureHelpInfo, SignatureInfo } from "./types";

interface Param {
  readonly name: string;
  readonly label: readonly [number, number];
  readonly keywordOnly: boolean;
  readonly varargs: boolean;
}

interface ParsedSignature {
  readonly info: SignatureInfo;
  readonly params: readonly Param[];
}

/** One display signature → its parameters with their ranges in the label. */
function parseSignature(label: string, documentation: string): ParsedSignature {
  const open = label.indexOf("(");
  const close = label.indexOf(")", open + 1);
  const params: Param[] = [];
  if (open >= 0 && close > open) {
    let keywordOnly = false;
    let start = open + 1;
    for (const part of label.slice(open + 1, close).split(", ")) {
      const end = start + part.length;
      if (part === "*") keywordOnly = true;
      else if (part !== "/" && part !== "") {
        params.push({
          name: part.replace(/^\*+/, "").split("=")[0] ?? part,
          label: [start, end],
          keywordOnly,
          varargs: part.startsWith("*"),
        });
      }
      start = end + 2;
    }
  }
  return {
    info: { label, documentation, parameters: params.map((p) => ({ label: p.label })) },
    params,
  };
}

/** The builtin's signatures (alternatives separated by ` | ` in the registry). */
function builtinSignatures(name: string): ParsedSignature[] {
  const spec = BUILTINS.get(name);
  if (spec === undefined) return [];
  return spec.signature.split(" | ").map((s) => parseSignature(s, spec.doc));
}

interface Frame {
  readonly open: IToken;
  /** Index of the open token in the token list. */
  readonly index: number;
  commas: number;
  keyword: string | null;
}

/** The unclosed brackets before `off`, innermost last. */
function openFrames(tokens: readonly IToken[], off: number): Frame[] {
  const stack: Frame[] = [];
  tokens.forEach((tok, index) => {
    if (tok.startOffset >= off) return;
    const type = tok.tokenType;
    if (type === T.LParen || type === T.LBracket || type === T.LBrace) {
      stack.push({ open: tok, index, commas: 0, keyword: null });
    } else if (type === T.RParen || type === T.RBracket || type === T.RBrace) {
      stack.pop();
    } else if (type === T.Comma) {
      const top = stack[stack.length - 1];
      if (top !== undefined) {
        top.commas++;
        top.keyword = null;
      }
    } else if (type === T.Assign) {
      const top = stack[stack.length - 1];
      const name = tokens[index - 1];
      if (top !== undefined && name?.tokenType === T.Name) top.keyword = name.image;
    }
  });
  return stack;
}

export function signatureHelpInfoAt(view: DocView, o: number): SignatureHelpInfo | null {
  const cursor = yamlCursorAt(view.text, view.root, o);
  if (cursor.kind !== "value") return null;
  const site = exprSiteOf(view, cursor.path, cursor.node);
  if (site === null || site.kind === "input") return null;
  const off = toExprOffset(site, o);
  const text = site.text;
  const tokens = T.tokenize(text);
  const frames = openFrames(tokens, off);
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i];
    if (frame === undefined || frame.open.tokenType !== T.LParen) continue;
    const callee = tokens[frame.index - 1];
    if (callee?.tokenType !== T.Name) continue;
    const isMethod = tokens[frame.index - 2]?.tokenType === T.Dot;
    let signatures: ParsedSignature[];
    if (isMethod) {
      const tree = repairedTree(text.slice(0, off), siteEnvironment(view, site), null);
      const receiver = receiverType(tree.expr, tree.types, callee.startOffset);
      signatures = methodsNamed(receiver, callee.image).map((m) => parseSignature(m.signature, m.doc));
    } else {
      signatures = builtinSignatures(callee.image);
    }
    if (signatures.length === 0) return null;
    return choose(signatures, frame);
  }
  return null;
}

/** The receiver type of the attribute whose name starts at `nameStart` (null when unknown). */
function receiverType(root: Expr | null, types: ReadonlyMap<Expr, Type>, nameStart: number): Type | null {
  if (root === null) return null;
  let found: Type | null = null;
  walk(root, {
    enter(node) {
      if (node.kind === "Attribute" && node.attrSpan.start === nameStart)
        found = types.get(node.value) ?? ANY;
      return found === null;
    },
  });
  return found;
}

function activeIn(sig: ParsedSignature, frame: Frame): number {
  if (frame.keyword !== null) return sig.params.findIndex((p) => p.name === frame.keyword);
  const positional = sig.params.filter((p) => !p.keywordOnly || p.varargs);
  const byPosition = positional[frame.commas];
  if (byPosition !== undefined) return sig.params.indexOf(byPosition);
  const varargs = sig.params.findIndex((p) => p.varargs);
  return varargs >= 0 ? varargs : -1;
}

function choose(signatures: readonly ParsedSignature[], frame: Frame): SignatureHelpInfo {
  // The first alternative whose parameters can take the argument at the cursor.
  let active = 0;
  let parameter = activeIn(signatures[0] as ParsedSignature, frame);
  for (let i = 0; i < signatures.length; i++) {
    const p = activeIn(signatures[i] as ParsedSignature, frame);
    if (p >= 0) {
      active = i;
      parameter = p;
      break;
    }
  }
  return {
    signatures: signatures.map((s) => s.info),
    activeSignature: active,
    activeParameter: Math.max(parameter, 0),
  };
}
