// A unified diff of two texts (`check --fix-dry-run`), as `diff -u` / `git diff` print it: `---` /
// `+++` headers, `@@ -a,b +c,d @@` hunks with 3 lines of context. Lines are compared with their
// line breaks, so a changed line ending shows; a last line without a break is marked
// `\ No newline at end of file`. The common head and tail are cut first (fixes are local), the
// middle is compared with a longest-common-subsequence table.

const CONTEXT = 3;

type Op = { readonly kind: " " | "-" | "+"; readonly line: string };

export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string): string {
  if (oldText === newText) return "";
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const ops = diffLines(a, b);
  let out = `--- ${oldName}\n+++ ${newName}\n`;
  for (const hunk of hunks(ops)) out += hunk;
  return out;
}

/** Lines with their breaks (`\n`, `\r\n` or `\r`). */
function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      const row = lcs[i] as number[];
      row[j] =
        x[i] === y[j]
          ? ((lcs[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as number[])[j] as number, row[j + 1] as number);
    }
  }
  const ops: Op[] = a.slice(0, head).map((line) => ({ kind: " ", line }));
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      ops.push({ kind: " ", line: x[i++] as string });
      j++;
    } else if (
      j < y.length &&
      (i === x.length || ((lcs[i] as number[])[j + 1] as number) > ((lcs[i + 1] as number[])[j] as number))
    ) {
      ops.push({ kind: "+", line: y[j++] as string });
    } else ops.push({ kind: "-", line: x[i++] as string });
  }
  for (const line of a.slice(a.length - tail)) ops.push({ kind: " ", line });
  return ops;
}

function hunks(ops: readonly Op[]): string[] {
  const changed = ops.flatMap((op, k) => (op.kind === " " ? [] : [k]));
  const out: string[] = [];
  let k = 0;
  while (k < changed.length) {
    // One hunk: changes closer than 2 × CONTEXT lines of context are joined.
    const first = changed[k] as number;
    let last = first;
    while (k + 1 < changed.length && (changed[k + 1] as number) - last <= 2 * CONTEXT)
      last = changed[++k] as number;
    k++;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length, last + CONTEXT + 1);
    let oldStart = 1;
    let newStart = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== "+") oldStart++;
      if (op.kind !== "-") newStart++;
    }
    const body = ops.slice(from, to);
    const oldCount = body.filter((op) => op.kind !== "+").length;
    const newCount = body.filter((op) => op.kind !== "-").length;
    let text = `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n`;
    for (const op of body) {
      const bare = op.line.replace(/(?:\r\n|\r|\n)$/, "");
      const ending = op.line.slice(bare.length);
      text += `${op.kind}${bare}${ending === "\n" ? "\n" : ending === "" ? "\n\\ No newline at end of file\n" : `${ending.replace(/\n$/, "")}\n`}`;
    }
    out.push(text);
  }
  return out;
}

/** `start,count` (a hunk with no line of one side starts one line earlier, as diff prints it). */
function range(start: number, count: number): string {
  if (count === 1) return `${start}`;
  return `${count === 0 ? start - 1 : start},${count}`;
}
