// Reading one spec-kit task file (docs/reference/runtime.md §19.2): title, the [P] parallel marker, description
// and acceptance criteria. Pure text in, parsed task out; the patterns are the reference's, with
// Python's Unicode `\s` (see python-text.ts).
import { pyLstrip, pyStrip, S, splitLines } from "./python-text";

export interface TaskText {
  /** The heading text without `#`s, `Task:` and `[P]` markers; `""` without a heading. */
  readonly title: string;
  readonly parallel: boolean;
  /** The lines between the title and the criteria header, trimmed. */
  readonly description: string;
  /** The text of every checkbox item after the criteria header, trimmed, in order. */
  readonly criteria: readonly string[];
}

const TITLE_PREFIX = new RegExp(`^#+${S}*(?:Task:${S}*)?`, "u");
const PARALLEL = /\[P\]/iu;
const PARALLEL_MARKS = new RegExp(`${S}*\\[P\\]${S}*`, "giu");
const CRITERIA_HEADER = new RegExp(`^#+${S}*Acceptance Criteria`, "iu");
const CHECKBOX = new RegExp(`^${S}*-${S}*\\[[ xX]\\]${S}*(.+)`, "u");

export function readTaskText(text: string): TaskText {
  const lines = splitLines(text);
  // Without a heading the title is "" and the description starts after the first line.
  let titleRaw = "";
  let titleIndex = 0;
  const heading = lines.findIndex((line) => pyLstrip(line).startsWith("#"));
  if (heading >= 0) {
    titleRaw = pyStrip(lines[heading] ?? "").replace(TITLE_PREFIX, "");
    titleIndex = heading;
  }
  const parallel = PARALLEL.test(titleRaw);
  const title = pyStrip(titleRaw.replace(PARALLEL_MARKS, " "));

  const header = lines.findIndex((line) => CRITERIA_HEADER.test(line));
  const descriptionEnd = header >= 0 ? header : lines.length;
  // A header on the title line itself gives an empty description (slice end before start).
  const description = pyStrip(lines.slice(titleIndex + 1, descriptionEnd).join("\n"));

  const criteria: string[] = [];
  if (header >= 0) {
    for (const line of lines.slice(header + 1)) {
      const m = CHECKBOX.exec(line);
      if (m) criteria.push(pyStrip(m[1] ?? ""));
    }
  }
  return { title, parallel, description, criteria };
}
