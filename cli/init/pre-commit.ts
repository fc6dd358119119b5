// The `stratumc-check` hook in `.pre-commit-config.yaml`, through the `yaml` package's Document API
// (comments, key order and scalar styles survive). Present already — any repo entry listing a hook
// with id `stratumc-check`, this repository's or a local one — means nothing to do. A file that is
// not valid YAML, or whose `repos` is not a list, is refused with its location.
import { isMap, isScalar, isSeq, parseDocument, type YAMLMap } from "yaml";
import { HOOK_ENTRY, HOOK_ID } from "./starter";

export type PreCommitPlan =
  | { readonly kind: "unchanged" }
  | { readonly kind: "write"; readonly text: string }
  | { readonly kind: "error"; readonly message: string };

const NEW_FILE = `# pre-commit hooks (https://pre-commit.com): \`pre-commit install\` runs them before every commit.\nrepos:\n`;

export function planPreCommit(existing: string | null): PreCommitPlan {
  const entry = renderEntry("  ");
  if (existing === null || existing.trim() === "") return { kind: "write", text: NEW_FILE + entry };
  const doc = parseDocument(existing);
  const error = doc.errors[0];
  if (error !== undefined) {
    const at = error.linePos?.[0];
    const where = at === undefined ? "" : `${at.line}:${at.col}: `;
    return { kind: "error", message: `${where}not valid YAML (${error.message.split("\n")[0]})` };
  }
  const root = doc.contents;
  if (root !== null && !isMap(root)) return { kind: "error", message: "1:1: the top level is not a mapping" };
  const repos = root?.get("repos", true);
  if (repos !== undefined && !isSeq(repos)) {
    return { kind: "error", message: `${position(existing, repos)}'repos' is not a list` };
  }
  if (repos?.items.some(hasHook)) return { kind: "unchanged" };
  const expected = [...((doc.toJS() as { repos?: unknown[] } | null)?.repos ?? []), HOOK_ENTRY];
  // First choice: the entry appended as text after the last item, laid out like the first one, so
  // the rest of the file stays byte for byte; kept only when the file then reads as expected.
  if (repos !== undefined && repos.flow !== true && repos.items.length > 0) {
    const appended = appendText(existing, repos);
    if (appended !== null && sameJson(parseDocument(appended).toJS()?.repos, expected)) {
      return { kind: "write", text: appended };
    }
  }
  if (repos !== undefined) {
    if (repos.flow === true && repos.items.length === 0) repos.flow = false;
    repos.add(doc.createNode(HOOK_ENTRY));
  } else if (root !== null) (root as unknown as YAMLMap).set("repos", doc.createNode([HOOK_ENTRY]));
  else doc.contents = doc.createNode({ repos: [HOOK_ENTRY] }) as unknown as typeof doc.contents;
  // Keep the file's list style: `repos:` followed by `- ` at the key's column, or indented.
  const indentSeq = !/^repos:[^\n]*\n(?:\s*#[^\n]*\n)*-/m.test(existing);
  const text = doc.toString({ indentSeq });
  return { kind: "write", text };
}

/** The file with the entry appended after the last item of the block list `repos`, or null. */
function appendText(
  text: string,
  repos: { items: unknown[]; range?: [number, number, number] | null },
): string | null {
  const first = repos.items[0] as { range?: [number, number, number] | null } | undefined;
  const seqStart = repos.range?.[0];
  const itemStart = first?.range?.[0];
  const end = repos.range?.[1];
  if (seqStart === undefined || itemStart === undefined || end === undefined) return null;
  const dashColumn = seqStart - lineStartOf(text, seqStart);
  const gap = itemStart - seqStart - 1;
  if (gap < 1 || text[seqStart] !== "-" || /[\r\n]/.test(text.slice(seqStart, itemStart))) return null;
  const dash = " ".repeat(dashColumn);
  const body = " ".repeat(dashColumn + 1 + gap);
  const nested = dashColumn > 0 ? `${body}  ` : body;
  const entry = [
    `${dash}-${" ".repeat(gap)}repo: ${HOOK_ENTRY.repo}`,
    `${body}rev: ${HOOK_ENTRY.rev}`,
    `${body}hooks:`,
    `${nested}-${" ".repeat(gap)}id: ${HOOK_ID}`,
    "",
  ].join("\n");
  // After the line holding the end of the last item (its trailing comment stays with it).
  let at = end;
  if (at > 0 && text[at - 1] !== "\n") {
    while (at < text.length && text[at] !== "\n") at++;
    if (at < text.length) at++;
  }
  const before = text.slice(0, at);
  return `${before}${before.endsWith("\n") ? "" : "\n"}${entry}${text.slice(at)}`;
}

function lineStartOf(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text[i - 1] !== "\n") i--;
  return i;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function renderEntry(indent: string): string {
  return [
    `${indent}- repo: ${HOOK_ENTRY.repo}`,
    `${indent}  rev: ${HOOK_ENTRY.rev}`,
    `${indent}  hooks:`,
    `${indent}    - id: ${HOOK_ID}`,
    "",
  ].join("\n");
}

function hasHook(repo: unknown): boolean {
  if (!isMap(repo)) return false;
  const hooks = repo.get("hooks", true);
  if (!isSeq(hooks)) return false;
  return hooks.items.some((h) => {
    if (!isMap(h)) return false;
    const id = h.get("id", true);
    return isScalar(id) && id.value === HOOK_ID;
  });
}

function position(text: string, node: { range?: [number, number, number] | null }): string {
  const start = node.range?.[0];
  if (start === undefined) return "";
  const before = text.slice(0, start).split(/\r\n|\r|\n/);
  return `${before.length}:${(before[before.length - 1] ?? "").length + 1}: `;
}
