// `stratumc ui` against what a red-team run found, through the built `stratumc ui`, real sockets
// and Debian's Chromium: (1) the page's credential must reach no other server of the host — a
// cookie would (cookies ignore ports), so another local port saw `stratumc_ui_<port>=…` and could
// replay it for the flows; an old session cookie, and a session after a restart with the same
// token, must be worth nothing; (2) a flow of 10,000 steps must neither block the server (a 7 MB
// answer built on its thread held a style sheet back for seconds) nor the browser (280,000
// elements, 15 s to render).
import { createHmac } from "node:crypto";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, type RunningUi, startUi } from "../ui/browser-support";
import { startOtherServer, writeBigFlow } from "./ui-support";
import { tempTree } from "./workspace-support";

const TOKEN = "hostile-token-0123456789abcdef";

let tree: ReturnType<typeof tempTree>;
let home: string;
let browser: Browser;

beforeAll(async () => {
  tree = tempTree("stratumc-ui-hostile-");
  home = join(tree.path, "home");
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  tree?.dispose();
});

/** The page's session as this tab keeps it (null when it keeps none). */
function storedSession(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const storage = (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } })
      .sessionStorage;
    const text = storage.getItem("stratumc-ui-session");
    return text === null ? null : (JSON.parse(text) as { session: string }).session;
  });
}

describe("the page's credential", () => {
  let ui: RunningUi;

  beforeAll(async () => {
    ui = await startUi(home, ["--token", TOKEN]);
  }, 60_000);

  afterAll(async () => {
    await ui?.stop();
  });

  it("reaches no other local server: no cookie, no token, no session in anything it receives", async () => {
    const port = new URL(ui.origin).port;
    // A page on another port that tries to use the UI with whatever the browser would add.
    const other = await startOtherServer(`<!doctype html>
<script src="/script.js"></script>
<img src="http://127.0.0.1:${port}/api/flows">
<script>fetch("http://127.0.0.1:${port}/api/flows", { credentials: "include", mode: "no-cors" }).finally(() => fetch("/done"));</script>`);
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(ui.url);
      await page.locator("#flows-heading").waitFor();
      const session = await storedSession(page);
      // The page, and a script of another port's, visited in the same browser.
      await page.goto(`${other.origin}/`);
      const second = await context.newPage();
      await second.goto(`${other.origin}/script.js`);
      await expect.poll(() => other.seen.some((r) => r.url === "/done"), { timeout: 10_000 }).toBe(true);
      expect(await context.cookies()).toEqual([]);
      for (const request of other.seen) {
        expect(request.headers.cookie, request.url).toBeUndefined();
        expect(request.headers.authorization, request.url).toBeUndefined();
        const text = JSON.stringify(request);
        expect(text).not.toContain(TOKEN);
        if (session !== null) expect(text).not.toContain(session);
      }
      expect(session).not.toBeNull();
      await context.close();
    } finally {
      await other.close();
    }
  }, 60_000);

  it("takes nothing from a cookie: an old session cookie replayed gets 401", async () => {
    const port = new URL(ui.origin).port;
    // What the page's cookie used to be: derived from the token, so it outlived restarts.
    const old = createHmac("sha256", TOKEN).update("stratumc-ui session").digest("base64url");
    for (const cookie of [`stratumc_ui_${port}=${old}`, `stratumc_ui_${port}=${TOKEN}`]) {
      const r = await fetch(`${ui.origin}/api/flows`, { headers: { Cookie: cookie } });
      expect(r.status, cookie).toBe(401);
      expect(await r.text()).not.toContain('"flows"');
    }
  }, 30_000);
});

describe("a restart with the same token", () => {
  it("ends the sessions of open tabs: a reload asks for the printed address, which works again", async () => {
    const first = await startUi(home, ["--token", TOKEN]);
    const port = new URL(first.origin).port;
    const page = await browser.newPage();
    try {
      await page.goto(first.url);
      await page.locator("#flows-heading").waitFor();
      const session = await storedSession(page);
      await page.reload(); // a reload keeps the tab's session
      await page.locator("#flows-heading").waitFor();
      expect(await first.stop()).toBe(0);
      const second = await startUi(home, ["--token", TOKEN, "--port", port]);
      try {
        expect(second.origin).toBe(first.origin);
        const replayed = await fetch(`${second.origin}/api/flows`, {
          headers: { Authorization: `Bearer ${session}` },
        });
        expect(replayed.status).toBe(401);
        await page.reload();
        await page.locator("#needs-token").waitFor();
        expect(await storedSession(page)).toBeNull();
        await page.goto(second.url);
        await page.locator("#flows-heading").waitFor();
        expect(new URL(page.url()).search).toBe("");
      } finally {
        await second.stop();
      }
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe("a flow of 10,000 steps", () => {
  let ui: RunningUi;
  let flowId: string;

  beforeAll(async () => {
    flowId = writeBigFlow(home, 10_000);
    ui = await startUi(home, ["--token", TOKEN]);
  }, 60_000);

  afterAll(async () => {
    await ui?.stop();
  });

  it("keeps serving the style sheet while the flow is read and its gate resolved, and answers in small pieces", async () => {
    const cold = writeBigFlow(home, 10_000);
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const reading = fetch(`${ui.origin}/api/flows/${cold}`, { headers: auth }).then(async (r) => ({
      status: r.status,
      bytes: (await r.arrayBuffer()).byteLength,
    }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const t0 = performance.now();
    const css = await fetch(`${ui.origin}/app.css`);
    await css.arrayBuffer();
    const cssMs = performance.now() - t0;
    const page = await reading;
    expect(page.status).toBe(200);
    // Measured: ~40–150 ms while the flow is read (before: 2.7–4.3 s, behind the 7 MB answer).
    expect(cssMs).toBeLessThan(1_500);
    // 100 steps, 100 records and 1,000 lines of the spec (before: 7 MB, everything).
    expect(page.bytes).toBeLessThan(250_000);

    // Resolving its gate loads and commits the whole flow: in the worker too.
    const resolving = fetch(`${ui.origin}/api/flows/${cold}/gate`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json", Origin: ui.origin },
      body: JSON.stringify({ step_id: "approve", outcome: "approve", note: "ok", revision: 1 }),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const t1 = performance.now();
    await (await fetch(`${ui.origin}/app.css`)).arrayBuffer();
    const duringGateMs = performance.now() - t1;
    const resolved = await resolving;
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toEqual({ ok: true, outcome: "approve", next: "complete" });
    expect(duringGateMs).toBeLessThan(1_500);
  }, 60_000);

  it("answers the page, its session and its change events while a flow is read for the first time", async () => {
    // A server of its own, started with the flow already stored: a flow that appears while a server
    // runs is read by its flows list, which keeps the page's data when it sees the flow at a gate,
    // and the page would then be no first read.
    const coldHome = join(tree.path, "cold-home");
    const cold = writeBigFlow(coldHome, 10_000);
    const ui = await startUi(coldHome, ["--token", TOKEN]);
    try {
      await firstReadOrder(ui, cold);
    } finally {
      await ui.stop();
    }
  }, 60_000);

  async function firstReadOrder(ui: RunningUi, cold: string): Promise<void> {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const answered: string[] = [];
    const done = (name: string) => (r: Response) => {
      answered.push(`${name} ${r.status}`);
      return r;
    };
    // A window of its steps: answered from the checked flow (the page's first answer about a long
    // flow is not: it comes before the check, as the next test shows).
    const reading = fetch(`${ui.origin}/api/flows/${cold}/steps?offset=0`, { headers: auth }).then(
      async (r) => {
        await r.arrayBuffer();
        return done("flow")(r);
      },
    );
    // Asked once the read is under way (the wait is no assertion: a later start only weakens the test).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const events = new AbortController();
    const others = [
      fetch(`${ui.origin}/`).then(done("page")),
      fetch(`${ui.origin}/app.js`).then(done("script")),
      fetch(`${ui.origin}/api/session`, { method: "POST", headers: { ...auth, Origin: ui.origin } }).then(
        done("session"),
      ),
      fetch(`${ui.origin}/api/events`, { headers: auth, signal: events.signal }).then(done("events")),
    ];
    await Promise.all(others);
    events.abort();
    await reading;
    // The flow's first read (decoding 4 MB, checking an 880 KB spec) runs in the reader's thread:
    // everything the server answers itself comes first, whatever the machine's load.
    expect(answered.at(-1)).toBe("flow 200");
    expect(answered.slice(0, -1).sort()).toEqual(["events 200", "page 200", "script 200", "session 200"]);
  }

  it("answers a fresh server's page of the flow before checking its spec, and draws the gate once checked", async () => {
    const freshHome = join(tree.path, "fresh-home");
    const fresh = writeBigFlow(freshHome, 10_000);
    const ui = await startUi(freshHome, ["--token", TOKEN]);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      const answers: { unchecked: boolean; gate: boolean }[] = [];
      page.on("response", (r) => {
        if (new URL(r.url()).pathname !== `/api/flows/${fresh}`) return;
        void r
          .json()
          .then((body: { unchecked?: true; gate: unknown }) =>
            answers.push({ unchecked: body.unchecked === true, gate: body.gate !== null }),
          );
      });
      await page.goto(`${ui.origin}/?token=${TOKEN}#/flow/${fresh}`);
      await page.locator('#steps li[data-step-id="approve"][data-state="awaiting_gate"]').waitFor();
      await page.locator("section#gate").waitFor();
      expect(await page.locator(".unchecked-note").count()).toBe(0);
      expect(await page.locator("#steps li").count()).toBe(100);
      // The first answer came from the flow file without the spec's check (no gate in it), the
      // next, asked at once by the page, from the checked flow.
      expect(answers).toEqual([
        { unchecked: true, gate: false },
        { unchecked: false, gate: true },
      ]);
    } finally {
      await page.close();
      await ui.stop();
    }
  }, 60_000);

  it("renders the window around the current step within seconds, with a bounded element count", async () => {
    // The server has read the flow once (its first read, decoding and checking 10,000 steps, is
    // measured by the bench); this measures the page.
    const warm = await fetch(`${ui.origin}/api/flows/${flowId}`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(warm.status).toBe(200);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      const t0 = performance.now();
      await page.goto(`${ui.origin}/?token=${TOKEN}#/flow/${flowId}`);
      await page.locator('#steps li[data-step-id="approve"][data-state="awaiting_gate"]').waitFor();
      const ms = performance.now() - t0;
      // Measured 1.7–3.0 s on a loaded 2-core machine, from the address to the steps drawn (the
      // session traded, the flow's window fetched); before: 15 s. The bench has the precise number.
      expect(ms).toBeLessThan(5_000);
      const elements = await page.evaluate(
        () =>
          (
            globalThis as unknown as { document: { getElementsByTagName(t: string): { length: number } } }
          ).document.getElementsByTagName("*").length,
      );
      expect(elements).toBeLessThan(5_000); // before: 280,000
      expect(await page.locator("#steps li").count()).toBe(100);
      expect(await page.textContent(".pager")).toContain("9,901–10,000 of 10,000 steps");
      // The person can page back.
      await page.locator(".pager-earlier").first().click();
      await page.locator('#steps li[data-step-id="s9800"]').waitFor();
      expect(await page.locator("section#gate").count()).toBe(1);
      // Every window keeps what the flow's read made once: the gate's review and the spec window.
      expect(await page.textContent(".pager")).toContain("9,801–9,900 of 10,000 steps");
      expect(await page.locator("#gate-review #review-spec").count()).toBe(1);
      const note = (await page.textContent(".spec-note")) ?? "";
      expect(note).toMatch(/^Lines [\d,]+–[\d,]+ of [\d,]+, around the current step\.$/);
      // The spec box draws the lines in and near its view, not the window's 1,000 (before: every
      // one); scrolling it to its top draws the window's first line.
      expect(await page.locator("#spec .line.current").count()).toBe(1);
      expect(await page.locator("#spec .line").count()).toBeLessThan(200);
      const firstLine = (/^Lines ([\d,]+)/.exec(note)?.[1] ?? "").replaceAll(",", "");
      await page.locator("#spec").evaluate((el) => {
        el.scrollTop = 0;
      });
      await page.locator(`#spec .line[data-line="${firstLine}"]`).waitFor();
      expect(await page.locator("#spec .line").count()).toBeLessThan(200);
      await page.locator(".pager-later").first().click();
      await page.locator('#steps li[data-step-id="approve"][data-state="awaiting_gate"]').waitFor();
      expect(await page.locator("#steps li").count()).toBe(100);
      expect(await page.locator("#gate-review #review-spec").count()).toBe(1);
    } finally {
      await page.close();
    }
  }, 60_000);
});
