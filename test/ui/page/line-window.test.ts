// The virtualised spec box's arithmetic (ui/page/line-window.ts): whatever the box's scroll,
// height and line height, every line in view is drawn, nothing outside the lines is, and the
// lines drawn stay a box's worth plus the overscan — the point of drawing a window at all.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstWindow, lineWindow } from "../../../ui/page/line-window";

const box = fc.record({
  count: fc.integer({ min: 0, max: 5_000 }),
  lineHeight: fc.integer({ min: 1, max: 60 }),
  viewHeight: fc.integer({ min: 0, max: 2_000 }),
  scrollTop: fc.integer({ min: -100, max: 400_000 }),
  overscan: fc.integer({ min: 0, max: 100 }),
});

describe("lineWindow", () => {
  it("draws every line in view, only lines that exist, and at most a box's worth plus the overscan", () => {
    fc.assert(
      fc.property(box, ({ count, lineHeight, viewHeight, scrollTop, overscan }) => {
        const w = lineWindow(scrollTop, viewHeight, lineHeight, count, overscan);
        expect(0 <= w.first && w.first <= w.end && w.end <= count).toBe(true);
        const top = Math.max(0, scrollTop);
        for (let i = 0; i < count; i++) {
          const inView = i * lineHeight < top + viewHeight && (i + 1) * lineHeight > top;
          if (inView) expect(w.first <= i && i < w.end).toBe(true);
        }
        expect(w.end - w.first).toBeLessThanOrEqual(Math.ceil(viewHeight / lineHeight) + 1 + 2 * overscan);
      }),
    );
  });

  it("draws the overscan beyond the box when there are lines there", () => {
    // 1,000 lines of 20 px, a 640 px box scrolled to line 500: lines 500–531 in view.
    expect(lineWindow(10_000, 640, 20, 1_000, 40)).toEqual({ first: 460, end: 572 });
    expect(lineWindow(0, 640, 20, 1_000, 40)).toEqual({ first: 0, end: 72 });
    expect(lineWindow(19_360, 640, 20, 1_000, 40)).toEqual({ first: 928, end: 1_000 });
  });
});

describe("firstWindow", () => {
  it("holds the line asked for, within the lines, as many lines as asked when there are", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.nat(),
        (count, size, at) => {
          const index = count === 0 ? 0 : at % count;
          const w = firstWindow(index, count, size);
          expect(0 <= w.first && w.first <= w.end && w.end <= count).toBe(true);
          expect(w.end - w.first).toBe(Math.min(size, count));
          if (count > 0) expect(w.first <= index && index < w.end).toBe(true);
        },
      ),
    );
  });
});
