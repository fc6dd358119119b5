// The gate panel: the gate a flow waits at, where each decision leads, a note, and the three
// decisions. It survives live refreshes of the same gate (the note being typed and the focus stay);
// a resolution POSTs with the revision the page showed, so a stale page is refused (409).
import type { GateAnswerView, GateOutcome, PendingGate } from "../api-types";
import { postGate } from "./api";
import { fill, h } from "./dom";
import { timeoutText } from "./format";
import { showStatus } from "./status";

const CONFLICT_MESSAGE =
  "This gate was already resolved by someone else; the page shows the flow as it is now.";

const VERB: Readonly<Record<GateOutcome, string>> = { approve: "Approve", revise: "Revise", kill: "Kill" };

function where(step: string | null): string {
  return step === null ? "the end of the flow" : step;
}

/** The status line after a resolution. */
function resolvedMessage(gate: PendingGate, answer: GateAnswerView): string {
  switch (answer.outcome) {
    case "approve":
      return answer.next === "complete" || gate.on_approve === null
        ? "Approved: the flow goes on to its end."
        : `Approved: the flow goes on to ${gate.on_approve}.`;
    case "revise":
      return answer.next === null
        ? "Revise refused: the flow has used all its rounds and stopped."
        : `Revised: the flow goes back to ${where(gate.on_revise)}.`;
    case "kill":
      return gate.on_kill === null || answer.next === "killed"
        ? "Killed: the flow is stopped."
        : `Killed: the flow goes on to ${gate.on_kill}.`;
  }
}

export class GatePanel {
  readonly el: HTMLElement;
  private gate: PendingGate;
  private revision: number;
  private busy = false;
  private readonly info: HTMLElement;
  private readonly note: HTMLTextAreaElement;
  private readonly buttons: Record<GateOutcome, HTMLButtonElement>;
  private readonly reviseHint: HTMLElement;
  private readonly form: HTMLElement;
  private readonly readOnly: HTMLElement;
  private readonly heading: HTMLElement;

  constructor(
    private readonly flowId: string,
    gate: PendingGate,
    revision: number,
    private readonly refetch: () => void,
    mayResolve = true,
  ) {
    this.gate = gate;
    this.revision = revision;
    this.info = h("dl", { class: "gate-routes" });
    this.note = h("textarea", {
      id: "gate-note",
      name: "note",
      rows: 3,
      placeholder: "Why? (recorded in the audit trail with your decision)",
      spellcheck: "true",
    });
    const button = (outcome: GateOutcome): HTMLButtonElement => {
      const b = h(
        "button",
        { type: "button", class: `btn btn-${outcome}`, "data-outcome": outcome },
        VERB[outcome],
      );
      b.addEventListener("click", () => void this.resolve(outcome));
      return b;
    };
    this.buttons = { approve: button("approve"), revise: button("revise"), kill: button("kill") };
    this.reviseHint = h("p", { class: "hint", id: "gate-revise-hint" }, "This gate has no revise route.");
    const heading = h("h2", { id: "gate-heading" }, "Waiting for your decision");
    this.heading = heading;
    // `--users` with may_resolve: the person sees the gate but another decides it (the server refuses them 403).
    this.readOnly = h(
      "p",
      { class: "hint", id: "gate-read-only" },
      "You may not resolve this gate (the users file's may_resolve): someone who may will decide it.",
    );
    this.form = h(
      "div",
      { class: "gate-form" },
      h("label", { for: "gate-note" }, "Note"),
      this.note,
      h("div", { class: "gate-actions" }, this.buttons.approve, this.buttons.revise, this.buttons.kill),
      this.reviseHint,
    );
    this.el = h(
      "section",
      { id: "gate", class: "gate-panel", "data-step-id": gate.step_id, "aria-labelledby": "gate-heading" },
      h("div", { class: "gate-head" }, h("span", { class: "gate-icon", "aria-hidden": "true" }), heading),
      h("div", { class: "gate-body" }, this.info, this.form, this.readOnly),
    );
    this.update(gate, revision, mayResolve);
  }

  /** The key of the gate this panel resolves: a refresh at the same gate keeps the panel. */
  static key(flowId: string, gate: PendingGate): string {
    return `${flowId}\n${gate.step_id}`;
  }

  key(): string {
    return GatePanel.key(this.flowId, this.gate);
  }

  update(gate: PendingGate, revision: number, mayResolve = true): void {
    this.gate = gate;
    this.revision = revision;
    this.form.hidden = !mayResolve;
    this.readOnly.hidden = mayResolve;
    this.heading.textContent = mayResolve ? "Waiting for your decision" : "Waiting for a decision";
    this.el.dataset.stepId = gate.step_id;
    const row = (term: string, value: string, cls: string): HTMLElement[] => [
      h("dt", null, term),
      h("dd", { class: cls }, value),
    ];
    fill(
      this.info,
      row("Step", gate.step_id, "mono"),
      row("Function", gate.function, "mono"),
      row("Approve →", where(gate.on_approve), "mono"),
      row("Revise →", gate.on_revise === null ? "not available" : gate.on_revise, "mono"),
      row("Kill →", where(gate.on_kill), "mono"),
      gate.timeout === null ? null : row("Timeout", timeoutText(gate.timeout), ""),
    );
    const noRevise = gate.on_revise === null;
    this.buttons.revise.hidden = noRevise;
    this.reviseHint.hidden = !noRevise;
    this.setBusy(this.busy);
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    this.el.setAttribute("aria-busy", String(busy));
    this.buttons.approve.disabled = busy;
    this.buttons.kill.disabled = busy;
    this.buttons.revise.disabled = busy || this.gate.on_revise === null;
  }

  private async resolve(outcome: GateOutcome): Promise<void> {
    if (this.busy) return;
    const gate = this.gate;
    this.setBusy(true);
    showStatus(`${VERB[outcome]}: sending…`, "info");
    const result = await postGate(this.flowId, {
      step_id: gate.step_id,
      outcome,
      note: this.note.value,
      revision: this.revision,
    });
    this.setBusy(false);
    if (result.ok) {
      this.note.value = "";
      showStatus(resolvedMessage(gate, result.value), "success");
      this.refetch();
    } else if (result.status === 409 || result.code === "conflict") {
      showStatus(CONFLICT_MESSAGE, "warning");
      this.refetch();
    } else {
      showStatus(`The gate could not be resolved: ${result.message}`, "error");
      if (result.status === 404) this.refetch();
    }
  }
}
