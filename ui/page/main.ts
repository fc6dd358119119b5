// The page's entry point: the session first (session.ts), then a hash router (`#/` the inbox, its
// filters after it as `#/?status=…&q=…`; `#/flow/<id>` one flow), live refresh of the view on the server's `change` events, and the
// relative times kept current.
import { whenUnauthorized } from "./api";
import { byId, fill, h } from "./dom";
import { type LiveState, listenForChanges } from "./events";
import { FlowView } from "./flow-view";
import { relativeTime } from "./format";
import { parseFilters } from "./inbox-route";
import { InboxView } from "./inbox-view";
import { NEEDS_TOKEN, signedInName, startSession, storeHome } from "./session";
import { clearStatus } from "./status";

interface View {
  readonly el: HTMLElement;
  refresh(): Promise<void>;
  dispose?(): void;
}

type Route =
  | { readonly name: "list"; readonly search: string }
  | { readonly name: "flow"; readonly id: string }
  | { readonly name: "unknown" };

export function parseRoute(hash: string): Route {
  const [path = "", search = ""] = hash.replace(/^#/, "").split(/\?(.*)/s);
  if (path === "" || path === "/") return { name: "list", search };
  const m = /^\/flow\/([^/]+)\/?$/.exec(path);
  if (m?.[1] !== undefined) {
    try {
      return { name: "flow", id: decodeURIComponent(m[1]) };
    } catch {
      return { name: "unknown" };
    }
  }
  return { name: "unknown" };
}

const app = byId("app", HTMLElement);
/** How long the first load waits at most for the change stream to open. */
const STREAM_WAIT_MS = 1_000;
/** Settles when the change stream has opened or failed once (or after STREAM_WAIT_MS). */
let streamOpen: Promise<unknown> = Promise.resolve();
let view: View | null = null;
let inflight = false;
let again = false;

/** The store's name in the header, as the session gave it. */
function setHome(home: string): void {
  const el = document.getElementById("home");
  if (el === null) return;
  el.textContent = home;
  el.title = `The flow store: ${home}`;
}

async function refresh(): Promise<void> {
  if (view === null) return;
  if (inflight) {
    again = true;
    return;
  }
  inflight = true;
  try {
    await view.refresh();
  } finally {
    inflight = false;
  }
  if (again) {
    again = false;
    await refresh();
  }
}

function navigate(): void {
  view?.dispose?.();
  clearStatus();
  const route = parseRoute(location.hash);
  if (route.name === "list") view = new InboxView(parseFilters(route.search));
  else if (route.name === "flow") view = new FlowView(route.id);
  else {
    view = {
      el: h(
        "section",
        { class: "view" },
        h("h1", { tabindex: -1 }, "Page not found"),
        h("p", null, h("a", { href: "#/" }, "← All flows")),
      ),
      refresh: async () => {},
    };
    document.title = "Not found · stratumc";
  }
  fill(app, view.el);
  window.scrollTo(0, 0);
  view.el.querySelector<HTMLElement>("h1")?.focus({ preventScroll: true });
  again = false;
  inflight = false;
  void streamOpen.then(refresh);
}

function setLive(state: LiveState): void {
  const el = document.getElementById("live");
  if (el === null) return;
  el.dataset.state = state;
  el.textContent = state === "live" ? "Live" : state === "connecting" ? "Reconnecting…" : "Offline";
  el.title =
    state === "live"
      ? "Updates appear as they happen"
      : state === "connecting"
        ? "Lost the connection to the server; trying again"
        : "Not receiving updates: the page needs the printed address again";
}

/** No session (none in this tab, the server restarted, it expired): say what to do, show nothing else. */
function showNeedsToken(message: string): void {
  view?.dispose?.();
  view = null;
  window.removeEventListener("hashchange", navigate);
  setLive("offline");
  fill(
    app,
    h(
      "section",
      { class: "view", id: "needs-token" },
      h("h1", { tabindex: -1 }, "Open the address stratumc ui printed"),
      h("p", { class: "error-text" }, message),
    ),
  );
  document.title = "Sign in · stratumc";
}

/** The signed-in person's name in the header (`--users`); nothing with the single token. */
function showWho(name: string | null): void {
  const el = document.getElementById("who");
  if (el === null) return;
  el.hidden = name === null;
  el.textContent = name === null ? "" : `Signed in as ${name}`;
}

function tickTimes(): void {
  const now = Date.now();
  for (const el of document.querySelectorAll<HTMLElement>("time[data-ms]")) {
    const ms = Number(el.dataset.ms);
    if (Number.isFinite(ms)) el.textContent = relativeTime(ms, now);
  }
}

void startSession().then((started) => {
  if (!started.ok) {
    showNeedsToken(started.message);
    return;
  }
  whenUnauthorized(() => showNeedsToken(NEEDS_TOKEN));
  showWho(signedInName());
  const home = storeHome();
  if (home !== null) setHome(home);
  // The first load waits for the change stream (one round trip, or a second at most): a change
  // made between a load and the stream's opening would otherwise never reach the page.
  streamOpen = Promise.race([
    listenForChanges(() => void refresh(), setLive),
    new Promise<void>((resolve) => window.setTimeout(resolve, STREAM_WAIT_MS)),
  ]);
  window.addEventListener("hashchange", navigate);
  navigate();
  window.setInterval(tickTimes, 15_000);
});
