// "Earlier" / "Later" under a long list (a flow's steps, its audit): the page shows one window of
// a hundred items at a time, so a flow of 10,000 steps renders as fast as one of 100 and the
// page's element count stays bounded (docs/guides/ui.md "Big flows").
import { h } from "./dom";

export class Pager {
  readonly el: HTMLElement;
  private readonly label: HTMLElement;
  private readonly earlier: HTMLButtonElement;
  private readonly later: HTMLButtonElement;
  private offset = 0;
  private size = 0;

  constructor(
    private readonly noun: string,
    onMove: (offset: number) => void,
  ) {
    this.label = h("span", { class: "pager-label muted" });
    this.earlier = h("button", { type: "button", class: "pager-earlier" }, "← Earlier");
    this.later = h("button", { type: "button", class: "pager-later" }, "Later →");
    this.earlier.addEventListener("click", () => onMove(Math.max(0, this.offset - this.size)));
    this.later.addEventListener("click", () => onMove(this.offset + this.size));
    this.el = h(
      "nav",
      { class: "pager", "aria-label": `More ${noun}`, hidden: true },
      this.earlier,
      this.label,
      this.later,
    );
  }

  /** Shows where the window is; hidden when it holds everything. */
  update(offset: number, shown: number, total: number, size: number): void {
    this.offset = offset;
    this.size = size;
    this.el.hidden = offset === 0 && shown >= total;
    const last = Math.min(total, offset + shown);
    this.label.textContent =
      shown === 0
        ? `none of ${total.toLocaleString("en")} ${this.noun}`
        : `${(offset + 1).toLocaleString("en")}–${last.toLocaleString("en")} of ${total.toLocaleString("en")} ${this.noun}`;
    this.earlier.disabled = offset === 0;
    this.later.disabled = last >= total;
  }
}
