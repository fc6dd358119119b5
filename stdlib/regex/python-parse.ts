// A port of CPython 3.11's re._parser for str patterns: it accepts exactly the patterns
// `re.compile` accepts and reports the same message and position for the others (the reference
// compiles guardrail patterns with it). Nothing is matched here: python-re2.ts translates the tree.
import type { PyAt, PyCategory, PyFlags, PyNode, PyPattern, PyReError, PySeq, PySetItem } from "./python-ast";
import { PyReSyntaxError, Tokens } from "./python-tokens";

export type PyParse =
  | { readonly ok: true; readonly pattern: PyPattern }
  | { readonly ok: false; readonly error: PyReError };

const DIGITS = "0123456789";
const OCTDIGITS = "01234567";
const HEXDIGITS = "0123456789abcdefABCDEF";
const ASCIILETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const WHITESPACE = " \t\n\r\v\f";
const SPECIAL_CHARS = ".\\[{()*+?^$|";
const REPEAT_CHARS = "*+?{";
/** Python's MAXREPEAT on 64-bit builds (a repeat count must be below it). */
const MAXREPEAT = 4294967295;
const MAXGROUPS = 1073741823;
const FLAG_CHARS = "aiLmsuxt";

const ESCAPES: Readonly<Record<string, number>> = {
  "\\a": 7,
  "\\b": 8,
  "\\f": 12,
  "\\n": 10,
  "\\r": 13,
  "\\t": 9,
  "\\v": 11,
  "\\\\": 92,
};
const AT_ESCAPES: Readonly<Record<string, PyAt>> = { "\\A": "A", "\\Z": "Z", "\\b": "b", "\\B": "B" };
const CATEGORY_ESCAPES: Readonly<Record<string, PyCategory>> = {
  "\\d": "d",
  "\\D": "D",
  "\\s": "s",
  "\\S": "S",
  "\\w": "w",
  "\\W": "W",
};

/** Python's repr of a str, for the names inside messages (stdlib/regex depends on nothing else). */
function strRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "\\" || ch === quote) out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

const IDENTIFIER = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;
const cpLength = (s: string): number => Array.from(s).length;
const cp = (s: string): number => s.codePointAt(0) ?? 0;

interface State {
  flags: { i: boolean; m: boolean; s: boolean; x: boolean; a: boolean };
  readonly groupDict: Map<string, number>;
  /** Width of each closed group, indexed by group number (index 0 unused); null while open. */
  readonly groupWidths: Array<readonly [number, number] | null>;
  lookbehindGroups: number | null;
  /** Groups named by number in a conditional, with the position Python reports if they never exist. */
  readonly groupRefPos: Map<number, number>;
}

type Item = { kind: "lit"; cp: number } | { kind: "cat"; cat: PyCategory } | { kind: "named"; name: string };

/** Parse `pattern` as `re.compile(pattern, flags)` does (flags: the caller's, e.g. IGNORECASE|MULTILINE). */
export function parsePython(pattern: string, flags: Partial<PyFlags> = {}): PyParse {
  try {
    const tokens = new Tokens(pattern);
    const state: State = {
      flags: { i: false, m: false, s: false, x: false, a: false, ...flags },
      groupDict: new Map(),
      groupWidths: [null],
      lookbehindGroups: null,
      groupRefPos: new Map(),
    };
    const seq = parseSub(tokens, state, state.flags.x, 0);
    if (tokens.next !== null) {
      // Only `)` can stop the top-level alternation early.
      throw tokens.error("unbalanced parenthesis");
    }
    for (const [group, position] of state.groupRefPos)
      if (group >= state.groupWidths.length)
        throw new PyReSyntaxError({ message: `invalid group reference ${group}`, position });
    checkLookbehinds(seq, state);
    return { ok: true, pattern: { seq, flags: { ...state.flags } } };
  } catch (error) {
    if (error instanceof PyReSyntaxError) return { ok: false, error: error.error };
    throw error;
  }
}

function parseSub(tokens: Tokens, state: State, verbose: boolean, nested: number): PySeq {
  const items: PyNode[][] = [];
  let v = verbose;
  for (;;) {
    items.push(parseSeq(tokens, state, v, nested + 1, nested === 0 && items.length === 0));
    if (!tokens.match("|")) break;
    if (nested === 0) v = state.flags.x;
  }
  if (items.length === 1) return items[0] ?? [];
  return [{ t: "branch", alts: items }];
}

function classEscape(tokens: Tokens, esc: string): Item {
  const code = ESCAPES[esc];
  if (code !== undefined) return { kind: "lit", cp: code };
  const cat = CATEGORY_ESCAPES[esc];
  if (cat !== undefined) return { kind: "cat", cat };
  if (esc === "\\N") return { kind: "named", name: namedEscape(tokens) };
  const numeric = numericEscape(tokens, esc, true);
  if (numeric !== null) return { kind: "lit", cp: numeric };
  throw tokens.error(`bad escape ${esc}`, cpLength(esc));
}

/** \x \u \U octal and plain escapes shared by both contexts; null: not one of them. */
function numericEscape(tokens: Tokens, esc: string, inClass: boolean): number | null {
  const c = esc.slice(1);
  const hexEscape = (digits: number): number => {
    const full = esc + tokens.getWhile(digits, HEXDIGITS);
    if (cpLength(full) !== digits + 2) throw tokens.error(`incomplete escape ${full}`, cpLength(full));
    const value = Number.parseInt(full.slice(2), 16);
    if (value > 0x10ffff) throw tokens.error(`bad escape ${full}`, cpLength(full));
    return value;
  };
  if (c === "x") return hexEscape(2);
  if (c === "u") return hexEscape(4);
  if (c === "U") return hexEscape(8);
  if (inClass && OCTDIGITS.includes(c)) {
    const full = esc + tokens.getWhile(2, OCTDIGITS);
    const value = Number.parseInt(full.slice(1), 8);
    if (value > 0o377)
      throw tokens.error(`octal escape value ${full} outside of range 0-0o377`, cpLength(full));
    return value;
  }
  if (inClass && DIGITS.includes(c)) throw tokens.error(`bad escape ${esc}`, cpLength(esc));
  if (cpLength(esc) === 2 && c !== "N" && !DIGITS.includes(c)) {
    if (ASCIILETTERS.includes(c)) throw tokens.error(`bad escape ${esc}`, cpLength(esc));
    return cp(c);
  }
  return null;
}

/** `\N{name}`: Python looks the name up; we keep it (python-re2.ts reports it as unsupported). */
function namedEscape(tokens: Tokens): string {
  if (!tokens.match("{")) throw tokens.error("missing {");
  return tokens.getUntil("}", "character name");
}

function escapeNode(tokens: Tokens, esc: string, state: State): PyNode {
  const cat = CATEGORY_ESCAPES[esc];
  if (cat !== undefined) return { t: "set", negate: false, items: [{ t: "cat", cat }] };
  const at = AT_ESCAPES[esc];
  if (at !== undefined) return { t: "at", at };
  const code = ESCAPES[esc];
  if (code !== undefined) return { t: "lit", cp: code };
  const c = esc.slice(1);
  if (c === "N") return { t: "named", name: namedEscape(tokens) };
  if (c === "0") return { t: "lit", cp: Number.parseInt(esc.slice(1) + tokens.getWhile(2, OCTDIGITS), 8) };
  if (DIGITS.includes(c)) {
    let full = esc;
    if (tokens.next !== null && DIGITS.includes(tokens.next)) {
      full += tokens.get();
      const [d1, d2] = [full[1] ?? "", full[2] ?? ""];
      if (
        OCTDIGITS.includes(d1) &&
        OCTDIGITS.includes(d2) &&
        tokens.next !== null &&
        OCTDIGITS.includes(tokens.next)
      ) {
        full += tokens.get();
        const value = Number.parseInt(full.slice(1), 8);
        if (value > 0o377)
          throw tokens.error(`octal escape value ${full} outside of range 0-0o377`, cpLength(full));
        return { t: "lit", cp: value };
      }
    }
    const group = Number.parseInt(full.slice(1), 10);
    if (group < state.groupWidths.length) {
      if (state.groupWidths[group] === null)
        throw tokens.error("cannot refer to an open group", cpLength(full));
      checkLookbehindGroup(tokens, state, group);
      return { t: "groupref", group };
    }
    throw tokens.error(`invalid group reference ${group}`, cpLength(full) - 1);
  }
  const numeric = numericEscape(tokens, esc, false);
  if (numeric !== null) return { t: "lit", cp: numeric };
  throw tokens.error(`bad escape ${esc}`, cpLength(esc));
}

function checkLookbehindGroup(tokens: Tokens, state: State, group: number): void {
  if (state.lookbehindGroups !== null && group >= state.lookbehindGroups)
    throw tokens.error("cannot refer to group defined in the same lookbehind subpattern");
}

function checkGroupName(tokens: Tokens, name: string, offset: number): void {
  if (!IDENTIFIER.test(name))
    throw tokens.error(`bad character in group name ${strRepr(name)}`, cpLength(name) + offset);
}

function parseSet(tokens: Tokens, here: number): PyNode {
  const set: PySetItem[] = [];
  const negate = tokens.match("^");
  const item = (x: Item): PySetItem =>
    x.kind === "lit"
      ? { t: "lit", cp: x.cp }
      : x.kind === "cat"
        ? { t: "cat", cat: x.cat }
        : { t: "named", name: x.name };
  for (;;) {
    const token = tokens.get();
    if (token === null) throw tokens.error("unterminated character set", tokens.tell() - here);
    if (token === "]" && set.length > 0) break;
    const code1: Item = token.startsWith("\\") ? classEscape(tokens, token) : { kind: "lit", cp: cp(token) };
    if (tokens.match("-")) {
      const that = tokens.get();
      if (that === null) throw tokens.error("unterminated character set", tokens.tell() - here);
      if (that === "]") {
        set.push(item(code1), { t: "lit", cp: 45 });
        break;
      }
      const code2: Item = that.startsWith("\\") ? classEscape(tokens, that) : { kind: "lit", cp: cp(that) };
      const message = `bad character range ${token}-${that}`;
      if (code1.kind !== "lit" || code2.kind !== "lit" || code2.cp < code1.cp)
        throw tokens.error(message, cpLength(token) + 1 + cpLength(that));
      set.push({ t: "range", lo: code1.cp, hi: code2.cp });
    } else set.push(item(code1));
  }
  return { t: "set", negate, items: set };
}

function parseRepeat(tokens: Tokens, token: string, seq: PyNode[]): "literal" | null {
  const here = tokens.tell();
  let min = 0;
  let max: number | null = null;
  if (token === "?") max = 1;
  else if (token === "+") min = 1;
  else if (token === "{") {
    if (tokens.next === "}") return "literal";
    let lo = "";
    let hi = "";
    while (tokens.next !== null && DIGITS.includes(tokens.next)) lo += tokens.get();
    if (tokens.match(",")) {
      while (tokens.next !== null && DIGITS.includes(tokens.next)) hi += tokens.get();
    } else hi = lo;
    if (!tokens.match("}")) {
      tokens.seek(here);
      return "literal";
    }
    // Python raises OverflowError here (not re.error); the reference's check then fails too.
    if (lo !== "") min = Number(lo);
    if (hi !== "") max = Number(hi);
    if (min >= MAXREPEAT || (max !== null && max >= MAXREPEAT))
      throw new PyReSyntaxError({ message: "the repetition number is too large", position: null });
    if (max !== null && max < min)
      throw tokens.error("min repeat greater than max repeat", tokens.tell() - here);
  }
  const last = seq[seq.length - 1];
  if (last === undefined || last.t === "at")
    throw tokens.error("nothing to repeat", tokens.tell() - here + cpLength(token));
  if (last.t === "repeat") throw tokens.error("multiple repeat", tokens.tell() - here + cpLength(token));
  const item: PySeq =
    last.t === "group" &&
    !last.capture &&
    Object.keys(last.add).length === 0 &&
    Object.keys(last.del).length === 0
      ? last.body
      : [last];
  const mode = tokens.match("?") ? "lazy" : tokens.match("+") ? "possessive" : "greedy";
  seq[seq.length - 1] = { t: "repeat", min, max, mode, item };
  return null;
}

function parseSeq(tokens: Tokens, state: State, verbose: boolean, nested: number, first: boolean): PyNode[] {
  const seq: PyNode[] = [];
  let v = verbose;
  for (;;) {
    const token = tokens.next;
    if (token === null || token === "|" || token === ")") break;
    tokens.get();
    if (v) {
      if (WHITESPACE.includes(token)) continue;
      if (token === "#") {
        for (;;) {
          const c = tokens.get();
          if (c === null || c === "\n") break;
        }
        continue;
      }
    }
    if (token.startsWith("\\")) seq.push(escapeNode(tokens, token, state));
    else if (!SPECIAL_CHARS.includes(token)) seq.push({ t: "lit", cp: cp(token) });
    else if (token === "[") seq.push(parseSet(tokens, tokens.tell() - 1));
    else if (REPEAT_CHARS.includes(token)) {
      if (parseRepeat(tokens, token, seq) === "literal") seq.push({ t: "lit", cp: cp("{") });
    } else if (token === ".") seq.push({ t: "any" });
    else if (token === "(") {
      const outcome = parseGroup(tokens, state, v, nested, first && seq.length === 0);
      if (outcome === "globalFlags") v = state.flags.x;
      else if (outcome !== null) seq.push(outcome);
    } else if (token === "^") seq.push({ t: "at", at: "begin" });
    else if (token === "$") seq.push({ t: "at", at: "end" });
  }
  // Unpack non-capturing groups without flags, as Python does.
  return seq.flatMap((node) =>
    node.t === "group" &&
    !node.capture &&
    Object.keys(node.add).length === 0 &&
    Object.keys(node.del).length === 0
      ? [...node.body]
      : [node],
  );
}

/** What follows `(`: a node, null (a comment or a consumed back reference), or the global flags were set. */
function parseGroup(
  tokens: Tokens,
  state: State,
  verbose: boolean,
  nested: number,
  atStart: boolean,
): PyNode | null | "globalFlags" {
  const start = tokens.tell() - 1;
  let capture = true;
  let atomic = false;
  let name: string | null = null;
  let add: Partial<PyFlags> = {};
  let del: Partial<PyFlags> = {};
  if (tokens.match("?")) {
    const char = tokens.get();
    if (char === null) throw tokens.error("unexpected end of pattern");
    if (char === "P") {
      if (tokens.match("<")) {
        name = tokens.getUntil(">", "group name");
        checkGroupName(tokens, name, 1);
      } else if (tokens.match("=")) {
        const ref = tokens.getUntil(")", "group name");
        checkGroupName(tokens, ref, 1);
        const gid = state.groupDict.get(ref);
        if (gid === undefined) throw tokens.error(`unknown group name ${strRepr(ref)}`, cpLength(ref) + 1);
        if (state.groupWidths[gid] === null)
          throw tokens.error("cannot refer to an open group", cpLength(ref) + 1);
        checkLookbehindGroup(tokens, state, gid);
        return { t: "groupref", group: gid };
      } else {
        const next = tokens.get();
        if (next === null) throw tokens.error("unexpected end of pattern");
        throw tokens.error(`unknown extension ?P${next}`, cpLength(next) + 2);
      }
    } else if (char === ":") capture = false;
    else if (char === "#") {
      for (;;) {
        if (tokens.next === null)
          throw tokens.error("missing ), unterminated comment", tokens.tell() - start);
        if (tokens.get() === ")") break;
      }
      return null;
    } else if ("=!<".includes(char)) {
      let kind = char;
      let behind = false;
      let outer: number | null = null;
      if (char === "<") {
        const next = tokens.get();
        if (next === null) throw tokens.error("unexpected end of pattern");
        if (next !== "=" && next !== "!")
          throw tokens.error(`unknown extension ?<${next}`, cpLength(next) + 2);
        kind = next;
        behind = true;
        outer = state.lookbehindGroups;
        if (outer === null) state.lookbehindGroups = state.groupWidths.length;
      }
      const body = parseSub(tokens, state, verbose, nested + 1);
      if (behind && outer === null) state.lookbehindGroups = null;
      if (!tokens.match(")")) throw tokens.error("missing ), unterminated subpattern", tokens.tell() - start);
      return { t: "assert", behind, negative: kind === "!", body };
    } else if (char === "(") return parseConditional(tokens, state, verbose, nested, start);
    else if (char === ">") {
      capture = false;
      atomic = true;
    } else if (FLAG_CHARS.includes(char) || char === "-") {
      const flags = parseFlags(tokens, state, char);
      if (flags === null) {
        if (!atStart)
          throw tokens.error("global flags not at the start of the expression", tokens.tell() - start);
        return "globalFlags";
      }
      [add, del] = flags;
      capture = false;
    } else throw tokens.error(`unknown extension ?${char}`, cpLength(char) + 1);
  }
  let group: number | null = null;
  if (capture) {
    group = state.groupWidths.length;
    if (group >= MAXGROUPS) throw tokens.error("too many groups");
    if (name !== null) {
      if (state.groupDict.has(name))
        throw tokens.error(
          `redefinition of group name ${strRepr(name)} as group ${group}; was group ${state.groupDict.get(name)}`,
          cpLength(name) + 1,
        );
      state.groupDict.set(name, group);
    }
    state.groupWidths.push(null);
  }
  const subVerbose = (verbose || add.x === true) && del.x !== true;
  const body = parseSub(tokens, state, subVerbose, nested + 1);
  if (!tokens.match(")")) throw tokens.error("missing ), unterminated subpattern", tokens.tell() - start);
  if (group !== null) state.groupWidths[group] = width(body, state);
  if (atomic) return { t: "atomic", body };
  return { t: "group", capture, add, del, body };
}

function parseConditional(
  tokens: Tokens,
  state: State,
  verbose: boolean,
  nested: number,
  start: number,
): PyNode {
  const condName = tokens.getUntil(")", "group name");
  let group: number;
  if (IDENTIFIER.test(condName)) {
    const gid = state.groupDict.get(condName);
    if (gid === undefined)
      throw tokens.error(`unknown group name ${strRepr(condName)}`, cpLength(condName) + 1);
    group = gid;
  } else {
    if (!/^[0-9]+$/u.test(condName))
      throw tokens.error(`bad character in group name ${strRepr(condName)}`, cpLength(condName) + 1);
    group = Number(condName);
    if (group === 0) throw tokens.error("bad group number", cpLength(condName) + 1);
    if (group >= MAXGROUPS) throw tokens.error(`invalid group reference ${group}`, cpLength(condName) + 1);
    if (!state.groupRefPos.has(group)) state.groupRefPos.set(group, tokens.tell() - cpLength(condName) - 1);
  }
  checkLookbehindGroup(tokens, state, group);
  const yes = parseSeq(tokens, state, verbose, nested + 1, false);
  let no: PySeq | null = null;
  if (tokens.match("|")) {
    no = parseSeq(tokens, state, verbose, nested + 1, false);
    if (tokens.next === "|") throw tokens.error("conditional backref with more than two branches");
  }
  if (!tokens.match(")")) throw tokens.error("missing ), unterminated subpattern", tokens.tell() - start);
  return { t: "cond", group, yes, no };
}

type FlagKey = keyof PyFlags | "L" | "t" | "u";
const FLAG_KEYS: Readonly<Record<string, FlagKey>> = {
  a: "a",
  i: "i",
  L: "L",
  m: "m",
  s: "s",
  u: "u",
  x: "x",
  t: "t",
};
const TYPE_FLAGS: ReadonlySet<FlagKey> = new Set(["a", "L", "u"]);

/** Python's _parse_flags: null for global flags `(?i)`, else the scoped (add, del) pair. */
function parseFlags(
  tokens: Tokens,
  state: State,
  first: string,
): [Partial<PyFlags>, Partial<PyFlags>] | null {
  const add = new Set<FlagKey>();
  const del = new Set<FlagKey>();
  let char: string | null = first;
  if (char !== "-") {
    for (;;) {
      const flag: FlagKey = FLAG_KEYS[char] ?? "t";
      if (flag === "L") throw tokens.error("bad inline flags: cannot use 'L' flag with a str pattern");
      add.add(flag);
      if (TYPE_FLAGS.has(flag) && [...add].filter((f) => TYPE_FLAGS.has(f)).length > 1)
        throw tokens.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      char = tokens.get();
      if (char === null) throw tokens.error("missing -, : or )");
      if (")-:".includes(char)) break;
      if (!FLAG_CHARS.includes(char))
        throw tokens.error(/^\p{L}$/u.test(char) ? "unknown flag" : "missing -, : or )", cpLength(char));
    }
  }
  if (char === ")") {
    for (const f of add)
      if (f === "i" || f === "m" || f === "s" || f === "x" || f === "a") state.flags[f] = true;
    return null;
  }
  if (add.has("t")) throw tokens.error("bad inline flags: cannot turn on global flag", 1);
  if (char === "-") {
    char = tokens.get();
    if (char === null) throw tokens.error("missing flag");
    if (!FLAG_CHARS.includes(char))
      throw tokens.error(/^\p{L}$/u.test(char) ? "unknown flag" : "missing flag", cpLength(char));
    for (;;) {
      const flag: FlagKey = FLAG_KEYS[char] ?? "t";
      if (TYPE_FLAGS.has(flag))
        throw tokens.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      del.add(flag);
      char = tokens.get();
      if (char === null) throw tokens.error("missing :");
      if (char === ":") break;
      if (!FLAG_CHARS.includes(char))
        throw tokens.error(/^\p{L}$/u.test(char) ? "unknown flag" : "missing :", cpLength(char));
    }
  }
  if (del.has("t")) throw tokens.error("bad inline flags: cannot turn off global flag", 1);
  for (const f of add) if (del.has(f)) throw tokens.error("bad inline flags: flag turned on and off", 1);
  const pick = (set: Set<FlagKey>): Partial<PyFlags> => {
    const out: { i?: boolean; m?: boolean; s?: boolean; x?: boolean; a?: boolean } = {};
    for (const f of set) if (f === "i" || f === "m" || f === "s" || f === "x" || f === "a") out[f] = true;
    if (set.has("u")) out.a = false;
    return out;
  };
  return [pick(add), pick(del)];
}

const MAXWIDTH = Number.MAX_SAFE_INTEGER;

/** (min, max) width of a sequence, as SubPattern.getwidth. */
function width(seq: PySeq, state: State): readonly [number, number] {
  let lo = 0;
  let hi = 0;
  for (const node of seq) {
    let w: readonly [number, number];
    switch (node.t) {
      case "branch": {
        const ws = node.alts.map((a) => width(a, state));
        w = [Math.min(...ws.map((x) => x[0])), Math.max(...ws.map((x) => x[1]))];
        break;
      }
      case "atomic":
      case "group":
        w = width(node.body, state);
        break;
      case "repeat": {
        const [i, j] = width(node.item, state);
        w = [i * node.min, node.max === null ? (j > 0 ? MAXWIDTH : 0) : j * node.max];
        break;
      }
      case "lit":
      case "set":
      case "any":
      case "named":
        w = [1, 1];
        break;
      case "groupref":
        w = state.groupWidths[node.group] ?? [0, 0];
        break;
      case "cond": {
        const yes = width(node.yes, state);
        w =
          node.no === null
            ? [0, yes[1]]
            : (() => {
                const no = width(node.no, state);
                return [Math.min(yes[0], no[0]), Math.max(yes[1], no[1])] as const;
              })();
        break;
      }
      default:
        w = [0, 0];
    }
    lo = Math.min(lo + w[0], MAXWIDTH);
    hi = Math.min(hi + w[1], MAXWIDTH);
  }
  return [lo, hi];
}

/** The compiler's check: a lookbehind must have a fixed width (Python gives no position). */
function checkLookbehinds(seq: PySeq, state: State): void {
  for (const node of seq) {
    const children: PySeq[] =
      node.t === "branch"
        ? [...node.alts]
        : node.t === "group" || node.t === "atomic" || node.t === "assert"
          ? [node.body]
          : node.t === "repeat"
            ? [node.item]
            : node.t === "cond"
              ? node.no === null
                ? [node.yes]
                : [node.yes, node.no]
              : [];
    if (node.t === "assert" && node.behind) {
      const [lo, hi] = width(node.body, state);
      if (lo !== hi)
        throw new PyReSyntaxError({ message: "look-behind requires fixed-width pattern", position: null });
    }
    for (const child of children) checkLookbehinds(child, state);
  }
}
