// Under the gate panel, what the person deciding needs beside the result itself
// (docs/guides/ui-at-the-gate.md): why each earlier attempt of the steps under review was rejected,
// what changed since the attempt or round before, the gate decisions taken so far, and the gate's
// lines of the spec with a button that brings the full spec to the gate's line. Everything shown
// came from agents or people and goes in as text.
import type {
  DiffChange,
  GateDecision,
  GateReview,
  RejectedAttempt,
  ResultComparison,
  StepUnderReview,
} from "../api-types";
import { type Child, h } from "./dom";
import { absoluteTime, plural } from "./format";
import { timeElement } from "./list-view";

const OP_LABEL: Readonly<Record<DiffChange["op"], string>> = {
  added: "added",
  removed: "removed",
  changed: "changed",
};

/** The review's element; `showSpecLine` scrolls the page's spec to a line (1-based, whole spec). */
export function gateReviewView(review: GateReview, showSpecLine: (line: number) => void): HTMLElement {
  const withRejections = review.steps.filter((s) => s.rejected.length > 0);
  const withDiffs = review.steps.filter((s) => s.comparisons.length > 0);
  return h(
    "section",
    { id: "gate-review", class: "card gate-review", "aria-labelledby": "gate-review-heading" },
    h("h2", { id: "gate-review-heading" }, "Before you decide"),
    h(
      "div",
      { class: "review-part", id: "review-rejections" },
      h("h3", null, "Rejected attempts"),
      withRejections.length === 0
        ? h("p", { class: "muted" }, "No attempt of the steps under review was rejected.")
        : withRejections.map(rejectionsOf),
    ),
    h(
      "div",
      { class: "review-part", id: "review-diff" },
      h("h3", null, "What changed"),
      withDiffs.length === 0
        ? h("p", { class: "muted" }, "No earlier attempt or round of the steps under review to compare with.")
        : withDiffs.map(diffsOf),
    ),
    h(
      "div",
      { class: "review-part", id: "review-decisions" },
      h("h3", null, "Earlier decisions"),
      decisionsOf(review),
    ),
    review.spec_excerpt === null ? null : specOf(review.spec_excerpt, showSpecLine),
  );
}

function stepHeading(step: StepUnderReview): HTMLElement {
  return h("h4", { class: "mono" }, step.step_id);
}

function rejectionsOf(step: StepUnderReview): HTMLElement {
  return h(
    "div",
    { class: "review-step", "data-step-id": step.step_id },
    stepHeading(step),
    h("ol", { class: "rejections" }, step.rejected.map(rejectionItem)),
  );
}

function rejectionItem(r: RejectedAttempt): HTMLLIElement {
  return h(
    "li",
    { class: "rejection" },
    h(
      "div",
      { class: "rejection-head" },
      h("span", { class: "state-badge state-failed" }, r.exhausted ? "last attempt rejected" : "rejected"),
      ` attempt ${r.attempt}, round ${r.round + 1} · `,
      timeElement(r.at_ms),
    ),
    r.violations.length === 0
      ? h("p", { class: "muted" }, "No reason was recorded.")
      : h(
          "ul",
          { class: "violations" },
          r.violations.map((v) => h("li", { class: "violation" }, v)),
          r.more_violations > 0
            ? h("li", { class: "muted" }, `and ${plural(r.more_violations, "more violation")}`)
            : null,
        ),
  );
}

function diffsOf(step: StepUnderReview): HTMLElement {
  return h(
    "div",
    { class: "review-step", "data-step-id": step.step_id },
    stepHeading(step),
    step.comparisons.map(comparisonOf),
  );
}

function comparisonOf(c: ResultComparison): HTMLElement {
  const against =
    c.against === "attempt"
      ? `Since attempt ${c.attempt} (rejected)`
      : `Since round ${c.round + 1} (before the revise)`;
  const body = c.omitted
    ? h("p", { class: "muted" }, "The earlier result was too large to keep, so there is no diff.")
    : c.changes.length === 0
      ? h("p", { class: "muted" }, "No change: the result is the same.")
      : h(
          "table",
          { class: "diff" },
          h(
            "thead",
            null,
            h(
              "tr",
              null,
              h("th", { scope: "col" }, ""),
              h("th", { scope: "col" }, "Path"),
              h("th", { scope: "col" }, "Before → now"),
            ),
          ),
          h("tbody", null, c.changes.map(changeRow)),
        );
  return h(
    "div",
    { class: "comparison", "data-against": c.against },
    h(
      "p",
      { class: "comparison-head" },
      against,
      c.changes.length > 0
        ? ` · ${plural(c.changes.length, "change")}${c.more ? " (more not shown)" : ""}`
        : "",
    ),
    body,
  );
}

function changeRow(change: DiffChange): HTMLTableRowElement {
  return h(
    "tr",
    { class: `diff-${change.op}` },
    h("td", { class: `diff-op op-${change.op}` }, OP_LABEL[change.op]),
    h("td", { class: "mono diff-path" }, change.path),
    h(
      "td",
      { class: "mono diff-values" },
      change.old === null ? null : h("span", { class: "diff-old" }, change.old),
      change.old !== null && change.new !== null
        ? h("span", { class: "diff-arrow", "aria-label": "becomes" }, " → ")
        : null,
      change.new === null ? null : h("span", { class: "diff-new" }, change.new),
    ),
  );
}

function decisionsOf(review: GateReview): Child {
  if (review.decisions.length === 0)
    return h("p", { class: "muted" }, "No gate of this flow was decided yet.");
  const left = review.decisions_total - review.decisions.length;
  return [
    left > 0
      ? h(
          "p",
          { class: "muted" },
          `${left} earlier ${left === 1 ? "decision is" : "decisions are"} in the audit trail.`,
        )
      : null,
    h("ol", { class: "decisions" }, review.decisions.map(decisionItem)),
  ];
}

function decisionItem(d: GateDecision): HTMLLIElement {
  return h(
    "li",
    { class: "decision", "data-outcome": d.outcome },
    h(
      "div",
      { class: "decision-head" },
      h("span", { class: `outcome outcome-${d.outcome}` }, d.outcome),
      h("span", { class: "mono" }, d.step_id),
      d.resolved_by === "" ? null : h("span", null, `by ${d.resolved_by}`),
      d.at_ms === null ? null : h("span", { title: absoluteTime(d.at_ms) }, timeElement(d.at_ms)),
      h("span", { class: "muted" }, `round ${d.round + 1}`),
    ),
    d.note === "" ? null : h("p", { class: "note" }, d.note),
  );
}

function specOf(
  excerpt: NonNullable<GateReview["spec_excerpt"]>,
  showSpecLine: (line: number) => void,
): HTMLElement {
  const button = h(
    "button",
    { type: "button", class: "btn btn-link", id: "show-gate-in-spec" },
    "Show in the spec",
  );
  button.addEventListener("click", () => showSpecLine(excerpt.gate_line));
  return h(
    "div",
    { class: "review-part", id: "review-spec" },
    h("h3", null, `The gate in the spec (line ${excerpt.gate_line}) `, button),
    h(
      "pre",
      { class: "spec spec-excerpt", "aria-label": "The gate's lines of the spec" },
      h(
        "code",
        null,
        excerpt.lines.map((text, i) => {
          const line = excerpt.first_line + i;
          return h(
            "span",
            { class: line === excerpt.gate_line ? "line current" : "line", "data-line": line },
            `${text}\n`,
          );
        }),
      ),
    ),
  );
}
