// The page's live status line (`#status`, aria-live polite): what just happened, for eyes and
// screen readers alike.

export type StatusKind = "info" | "success" | "warning" | "error";

function region(): HTMLElement | null {
  return document.getElementById("status");
}

let timer: number | undefined;

/** Shows `text`; all but errors fade after 15 s (an error stays until the next message). */
export function showStatus(text: string, kind: StatusKind = "info"): void {
  const el = region();
  if (el === null) return;
  el.dataset.kind = kind;
  el.textContent = text;
  window.clearTimeout(timer);
  if (kind !== "error") timer = window.setTimeout(clearStatus, 15_000);
}

export function clearStatus(): void {
  window.clearTimeout(timer);
  const el = region();
  if (el === null) return;
  el.textContent = "";
  delete el.dataset.kind;
}
