// resources/list of the flows (mcp/resources/flow-list.ts): newest first, capped, paged by a cursor
// that neither repeats nor skips a flow when flows change between pages.
import { describe, expect, it } from "vitest";
import { FLOWS_PAGE_SIZE, listFlowResources, MAX_LISTED_FLOWS } from "../../../mcp/resources/flow-list";
import { fixture } from "./flow-fixture";

describe("listFlowResources", () => {
  it("pages the newest flows, newest first, up to the cap", async () => {
    const f = fixture();
    const planned: string[] = [];
    for (let i = 0; i < 12; i++) {
      f.at(1000 + i);
      planned.push(await f.plan());
    }
    const limits = { listed: 10, page: 4 };
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listFlowResources(f.source, cursor, limits);
      expect(page.resources.length).toBeLessThanOrEqual(4);
      seen.push(...page.resources.map((r) => r.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual(planned.slice(2).reverse());
    expect(MAX_LISTED_FLOWS).toBe(1000);
    expect(FLOWS_PAGE_SIZE).toBe(50);
  });

  it("describes each flow: its name, status, progress and update time", async () => {
    const f = fixture();
    f.at(Date.UTC(2026, 0, 2, 3, 4, 5));
    const flowId = await f.plan();
    const { resources } = await listFlowResources(f.source, undefined);
    expect(resources).toEqual([
      {
        uri: `stratum://flows/${flowId}`,
        name: flowId,
        title: "two",
        description: "running: 0 of 2 steps done, at first",
        mimeType: "application/json",
        annotations: { lastModified: "2026-01-02T03:04:05.000Z" },
      },
    ]);
  });

  it("moves a flow updated between pages to the front without listing another twice", async () => {
    const f = fixture();
    const planned: string[] = [];
    for (let i = 0; i < 6; i++) {
      f.at(1000 + i);
      planned.push(await f.plan());
    }
    const limits = { listed: 100, page: 3 };
    const first = await listFlowResources(f.source, undefined, limits);
    // The oldest flow changes now: it is newer than the cursor, so the next page does not repeat it.
    f.at(5000);
    await f.firstDone(planned[0] ?? "", "t");
    const second = await listFlowResources(f.source, first.nextCursor, limits);
    const names = [...first.resources, ...second.resources].map((r) => r.name);
    expect(names).toEqual([planned[5], planned[4], planned[3], planned[2], planned[1]]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("refuses a cursor it did not give", async () => {
    const f = fixture();
    for (const cursor of ["", "x", Buffer.from("[1]").toString("base64url"), "a".repeat(600)]) {
      await expect(listFlowResources(f.source, cursor)).rejects.toMatchObject({ code: -32602 });
    }
  });
});
