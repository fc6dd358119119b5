// The inbox's filters in the page's address (ui/page/inbox-route.ts) and its texts
// (ui/page/inbox-format.ts): any filters survive the trip through the hash (a reload, a shared
// link), defaults are left out of it, and what is not understood falls back to the default.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GateOutcome, StatusFilter } from "../../../ui/api-types";
import { ageText, dueText, waitingText } from "../../../ui/page/inbox-format";
import { type InboxFilters, inboxHash, NO_FILTERS, parseFilters } from "../../../ui/page/inbox-route";

const filters: fc.Arbitrary<InboxFilters> = fc.record({
  status: fc.constantFrom<StatusFilter>("all", "in_progress", "awaiting_gate", "finished"),
  flow: fc.string({ maxLength: 20 }),
  q: fc.string({ maxLength: 60, unit: "grapheme" }),
  outcome: fc.constantFrom<GateOutcome | "">("", "approve", "revise", "kill"),
});

/** What the router hands the view: the hash's part after `?` (main.ts parseRoute). */
function searchOf(hash: string): string {
  const at = hash.indexOf("?");
  return at === -1 ? "" : hash.slice(at + 1);
}

describe("the inbox's filters in the address", () => {
  it("come back unchanged from the hash, whatever they hold (&, #, ?, =, spaces, any script)", () => {
    fc.assert(
      fc.property(filters, (f) => {
        const hash = inboxHash(f);
        expect(hash.startsWith("#/")).toBe(true);
        expect(parseFilters(searchOf(hash))).toEqual(f);
        // Read back as the browser gives it: location.hash of an address with that hash.
        const url = new URL(`http://127.0.0.1:7777/${hash}`);
        expect(parseFilters(searchOf(url.hash))).toEqual(f);
      }),
      { numRuns: 300 },
    );
  });

  it("leave defaults out, so the home without filters is #/", () => {
    expect(inboxHash(NO_FILTERS)).toBe("#/");
    expect(inboxHash({ ...NO_FILTERS, status: "awaiting_gate", q: "deploy db" })).toBe(
      "#/?status=awaiting_gate&q=deploy+db",
    );
  });

  it("fall back to the defaults for values they do not know", () => {
    expect(parseFilters("status=done&outcome=maybe&other=1")).toEqual(NO_FILTERS);
    expect(parseFilters(`q=${"x".repeat(500)}`).q).toHaveLength(200);
  });
});

describe("the inbox's texts", () => {
  it("say how long a gate has waited and when its timeout falls due", () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const min = 60_000;
    expect(waitingText(now - 30_000, now)).toBe("waiting under a minute");
    expect(waitingText(now - 5 * min, now)).toBe("waiting 5 min");
    expect(waitingText(now - 120 * min, now)).toBe("waiting 2 h");
    expect(waitingText(now - 125 * min, now)).toBe("waiting 2 h 5 min");
    expect(waitingText(now - 30 * 60 * min, now)).toBe("waiting 30 h");
    expect(waitingText(now - 3 * 24 * 60 * min, now)).toBe("waiting 3 days");
    expect(dueText(now + 40 * min, now)).toBe("due in 40 min");
    expect(dueText(now - 5 * min, now)).toBe("overdue by 5 min");
    expect(ageText(Number.NaN)).toBe("unknown");
  });
});
