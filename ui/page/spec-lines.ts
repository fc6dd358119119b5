// The flow page's spec card. A long spec comes as up to 1,000 lines around the current step's (the
// server's window): drawn whole, they were a quarter of the page's elements, all built and laid
// out before the first frame. Past VIRTUAL_PAST lines only the lines in the box and OVERSCAN on
// each side exist, between two spacers as tall as the lines left out; scrolling the box moves the
// window (line-window.ts). A short spec is drawn whole, so finding text in it with the browser
// still works.
import { h } from "./dom";
import { firstWindow, type LineWindow, lineWindow } from "./line-window";

/** Above this many lines the box is virtualised. */
const VIRTUAL_PAST = 200;
/** Lines drawn beyond each edge of the box, so that scrolling rarely shows a gap. */
const OVERSCAN = 40;

export class SpecLines {
  private lines: readonly string[] = [];
  private from = 1;
  private current: number | null = null;
  private drawn: LineWindow = { first: 0, end: 0 };
  private lineHeight = 0;
  private readonly code: HTMLElement = h("code");
  private readonly above: HTMLElement = h("span", { class: "spacer", "aria-hidden": "true" });
  private readonly below: HTMLElement = h("span", { class: "spacer", "aria-hidden": "true" });
  private scheduled = false;

  constructor(private readonly box: HTMLElement) {
    box.replaceChildren(this.code);
    box.addEventListener("scroll", () => this.onScroll(), { passive: true });
  }

  /** Shows `lines` (the first numbered `from`), the current step's line `current` a third of the way down the box. */
  show(lines: readonly string[], from: number, current: number | null): void {
    this.lines = lines;
    this.from = from;
    this.current = current;
    const index = current === null ? 0 : current - from;
    this.draw(this.virtual() ? firstWindow(index, lines.length) : { first: 0, end: lines.length });
    // Scroll the box (not the page) once it is laid out: then the line height is known too.
    requestAnimationFrame(() => {
      if (this.current !== null) this.reveal(this.current);
    });
  }

  /** The element of spec line `line` (1-based, whole spec), scrolled to a third of the way down the box; null when not among the lines shown. */
  reveal(line: number): HTMLElement | null {
    const index = line - this.from;
    if (index < 0 || index >= this.lines.length) return null;
    this.scrollTo(index);
    return this.code.querySelector<HTMLElement>(`.line[data-line="${line}"]`);
  }

  private virtual(): boolean {
    return this.lines.length > VIRTUAL_PAST;
  }

  private scrollTo(index: number): void {
    if (this.virtual()) {
      this.measure();
      if (this.lineHeight > 0) {
        const want = this.around(index);
        // The first window usually holds the lines wanted: then only the spacers change, and the
        // lines already laid out are not built again.
        if (want.first >= this.drawn.first && want.end <= this.drawn.end) this.space();
        else this.draw(want);
      }
    }
    const el = this.code.querySelector<HTMLElement>(`.line[data-line="${this.from + index}"]`);
    if (el !== null) this.box.scrollTop = Math.max(0, el.offsetTop - this.box.clientHeight / 3);
    this.update();
  }

  /** The window with line `index` a third of the way down a box of the current height. */
  private around(index: number): LineWindow {
    const view = this.box.clientHeight;
    return lineWindow(index * this.lineHeight - view / 3, view, this.lineHeight, this.lines.length, OVERSCAN);
  }

  private measure(): void {
    if (this.lineHeight > 0) return;
    const line = this.code.querySelector<HTMLElement>(".line");
    if (line !== null) this.lineHeight = line.offsetHeight;
  }

  private onScroll(): void {
    if (this.scheduled || !this.virtual()) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.update();
    });
  }

  /** Redraws when the lines in view are no longer all drawn. */
  private update(): void {
    if (!this.virtual()) return;
    this.measure();
    if (this.lineHeight <= 0) return;
    const view = lineWindow(this.box.scrollTop, this.box.clientHeight, this.lineHeight, this.lines.length, 0);
    if (view.first >= this.drawn.first && view.end <= this.drawn.end) return;
    this.draw(
      lineWindow(this.box.scrollTop, this.box.clientHeight, this.lineHeight, this.lines.length, OVERSCAN),
    );
  }

  private draw(range: LineWindow): void {
    this.drawn = range;
    const spans: HTMLElement[] = [];
    for (let i = range.first; i < range.end; i++) {
      const n = this.from + i;
      spans.push(
        h(
          "span",
          { class: n === this.current ? "line current" : "line", "data-line": n },
          `${this.lines[i]}\n`,
        ),
      );
    }
    this.space();
    this.code.replaceChildren(this.above, ...spans, this.below);
  }

  /** The spacers' heights: the lines left out above and below (none before the line height is known). */
  private space(): void {
    this.above.style.height = `${this.drawn.first * this.lineHeight}px`;
    this.below.style.height = `${(this.lines.length - this.drawn.end) * this.lineHeight}px`;
  }
}
