// The execution-model block of `CLAUDE.md` (docs/reference/runtime.md §22.1 step 4, docs/reference/runtime.md §22.2 step 2), as pure text
// functions. The marker line `## Stratum Execution Model` says whether the block is there; removal
// cuts from the first marker line to the end, so install then uninstall gives back the original
// text up to trailing whitespace. Files with CRLF line ends get the block with CRLF line ends.

export const EXECUTION_MODEL_MARKER = "## Stratum Execution Model";

/** The block, without the blank line that separates it from earlier content. */
export const EXECUTION_MODEL_BLOCK = `${EXECUTION_MODEL_MARKER}

For any task that takes more than one step, run it through Stratum:
1. Draft a \`.stratum.yaml\` spec for the task and keep it to yourself.
2. Call \`stratum_plan\` with the spec to validate it and receive the first step.
3. Carry out each step with your own tools and describe progress in plain language.
4. Report every finished step with \`stratum_step_done\`; the server checks the result.
5. When a step's checks fail, correct the work and report it again.
6. Finish with \`stratum_audit\` and include its trace in the commit message.
`;

/** The offset where the first marker line starts, or -1. A marker line may carry surrounding spaces. */
function markerOffset(text: string): number {
  let offset = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === EXECUTION_MODEL_MARKER) return offset;
    offset += line.length + 1;
  }
  return -1;
}

export function hasExecutionModel(text: string): boolean {
  return markerOffset(text) >= 0;
}

function lineEnd(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

/** The new file text: `existing` (null: no file) without trailing whitespace, a newline, the block. */
export function addExecutionModel(existing: string | null): string {
  const eol = existing === null ? "\n" : lineEnd(existing);
  const block = EXECUTION_MODEL_BLOCK.replaceAll("\n", eol);
  const kept = existing === null ? "" : existing.trimEnd();
  // An empty file gets the block alone, like a new one (no leading blank lines).
  return kept === "" ? block : `${kept}${eol}${eol}${block}`;
}

/** The text without the block (everything from the first marker line), or null when nothing remains. */
export function removeExecutionModel(text: string): string | null {
  const at = markerOffset(text);
  const kept = (at < 0 ? text : text.slice(0, at)).trimEnd();
  return kept === "" ? null : `${kept}${lineEnd(text)}`;
}
