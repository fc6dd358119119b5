// YAML scalar styles for generated values: plain, single- and double-quoted, literal and folded
// blocks. Every style appears in real specs, and each one maps expression offsets differently.
import type { Rendered } from "./model";
import type { Rng } from "./rng";

export function inline(head: string): Rendered {
  return { head, body: [] };
}

export function doubleQuoted(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function singleQuoted(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

const YAML11_SPECIAL =
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

/** Whether `s` can be written as a plain scalar in block context and still load as this string. */
function plainOk(s: string): boolean {
  if (s === "" || s.trim() !== s) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(s)) return false;
  if (s.includes(": ") || s.includes(" #") || s.endsWith(":")) return false;
  if (YAML11_SPECIAL.test(s) || /^[-+.\d]/.test(s)) return false;
  return true;
}

/** Whether `s` can be a plain scalar inside a flow collection (`[a, b]`, `{k: v}`). */
function flowPlainOk(s: string): boolean {
  return plainOk(s) && !/[,[\]{}]/.test(s);
}

/** A one-line string (an expression, a reference) in a block-context style chosen at random. */
export function blockScalar(rng: Rng, s: string, allowFolded = true): Rendered {
  const r = rng.next();
  if (r < 0.3 && plainOk(s)) return inline(s);
  if (r < 0.75) return inline(doubleQuoted(s));
  if (r < 0.92 || !allowFolded) return inline(singleQuoted(s));
  return folded(s);
}

/** A flow-context string: plain when possible, otherwise double-quoted. */
export function flowScalar(rng: Rng, s: string): string {
  return flowPlainOk(s) && rng.chance(0.4) ? s : doubleQuoted(s);
}

/** `>-` folded over two lines at a space (the folded value is the original text). */
function folded(s: string): Rendered {
  const mid = s.indexOf(" ", Math.floor(s.length / 2));
  if (mid < 0 || s.length < 30) return { head: ">-", body: [s] };
  return { head: ">-", body: [s.slice(0, mid), s.slice(mid + 1)] };
}

/** Prose (intents, descriptions): quoted, plain, or a `|`/`>` block of several lines. */
export function prose(rng: Rng, text: string): Rendered {
  const r = rng.next();
  if (r < 0.35) return inline(doubleQuoted(text));
  if (r < 0.5 && plainOk(text)) return inline(text);
  if (r < 0.6) return inline(singleQuoted(text));
  const words = text.split(" ");
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line !== "" && line.length + w.length > 48) {
      lines.push(line);
      line = w;
    } else line = line === "" ? w : `${line} ${w}`;
  }
  if (line !== "") lines.push(line);
  return { head: rng.pick(["|", ">", ">-", "|-"]), body: lines };
}
