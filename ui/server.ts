// The HTTP handler of `stratumc ui` (docs/guides/ui.md): the page, its JSON API over the flow store, live
// change events, and gate resolution as `stratumc gate` does it. node:http only. Every request
// passes the Host check (DNS rebinding); every request but the page's three public files needs
// the token or a session (auth.ts); every answer carries a strict Content-Security-Policy, so
// even a value that slipped past the page's text-only rendering could not run a script. A flow's
// steps and audit come in pages, so no answer is large however long the flow.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NodeHost } from "../host/index";
import { StoreUnavailableError, StoreUnusableError } from "../interpreter/index";
import type { ApiError, GateOutcome, GateRequest, SessionView } from "./api-types";
import { UiAuth } from "./auth";
import { type FlowReader, inPlaceReader } from "./flow-reader";
import { FlowSource, type Loaded } from "./flow-source";
import { pageFor, refuseGate } from "./gate-permission";
import { parseInboxQuery } from "./inbox-view";
import { StoreWatch } from "./store-watch";
import type { Reviewer } from "./users";
import { PAGE_SIZE } from "./views";

/** The page's three files (built by scripts/build.mjs from ui/page/). */
export interface PageAssets {
  /** index.html: no secret in it, it is served to anyone who reaches the server. */
  readonly html: string;
  readonly js: string;
  readonly css: string;
}

export interface UiServerOptions {
  readonly flowHost: NodeHost;
  readonly auth: UiAuth;
  readonly assets: PageAssets;
  /** Host header values accepted (`127.0.0.1:8080`, …); null accepts any (a non-loopback bind, token required). */
  readonly hosts: ReadonlySet<string> | null;
  /** Where flows are read; default: on the server's thread (the shipped CLI reads them in a worker). */
  readonly reader?: FlowReader;
  /** The store's folder, watched for changes while a page listens; null: the store is polled. */
  readonly watchDir: string | null;
  /** At most how often pages hear of changes, and how often the store is polled when it is (ms). */
  readonly pollMs?: number;
  /** Unexpected failures (the answer says only internal_error). */
  readonly logError: (message: string) => void;
}

const MAX_BODY_BYTES = 64 * 1024;
const KEEPALIVE_MS = 15_000;

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
};

const OUTCOMES: ReadonlySet<string> = new Set<GateOutcome>(["approve", "revise", "kill"]);

/** The server's request listener, and `close` to stop watching the store. */
export interface UiHandler {
  readonly listener: (request: IncomingMessage, response: ServerResponse) => void;
  close(): void;
}

export function createUiHandler(options: UiServerOptions): UiHandler {
  const source = new FlowSource(options.flowHost);
  const reader = options.reader ?? inPlaceReader(source, options.flowHost);
  const store = options.flowHost.store;
  const watch = new StoreWatch({
    ...(store.watch === undefined ? {} : { feed: (listener: () => void) => store.watch!(listener) }),
    dir: options.watchDir,
    signature: () => source.signature(),
    intervalMs: options.pollMs ?? 250,
    logError: options.logError,
  });
  const listener = (request: IncomingMessage, response: ServerResponse): void => {
    handle(request, response).catch((e: unknown) => {
      options.logError(e instanceof Error ? e.message : String(e));
      if (response.headersSent) response.destroy();
      // A database store that is down: the page says so (the message names the store without
      // its password) and works again once it is back.
      else if (e instanceof StoreUnavailableError) sendError(response, 503, "store_unavailable", e.message);
      // One it cannot use as it is (a role without a privilege): the line says what to grant.
      else if (e instanceof StoreUnusableError) sendError(response, 503, "store_unusable", e.message);
      else sendError(response, 500, "internal_error", "the server failed; see its output");
    });
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const host = request.headers.host ?? "";
    if (options.hosts !== null && !options.hosts.has(host)) {
      sendText(response, 403, `Host '${host}' is not this server's address.\n`);
      return;
    }
    const url = new URL(request.url ?? "/", "http://placeholder");
    const method = request.method ?? "GET";
    const route = `${method} ${url.pathname}`;
    // The page's files hold no secret: the page itself reads the token from its address (docs/guides/ui.md).
    if (route === "GET /") {
      if (url.searchParams.has("token") && !options.auth.isToken(url.searchParams.get("token"))) {
        sendText(response, 401, "The token is wrong. Open the address that `stratumc ui` printed.\n");
        return;
      }
      send(response, 200, "text/html; charset=utf-8", options.assets.html);
      return;
    }
    if (route === "GET /app.js") {
      send(response, 200, "text/javascript; charset=utf-8", options.assets.js);
      return;
    }
    if (route === "GET /app.css") {
      send(response, 200, "text/css; charset=utf-8", options.assets.css);
      return;
    }
    if (route === "POST /api/session") {
      postSession(request, response, host);
      return;
    }
    const reviewer = options.auth.reviewerOf(request);
    if (reviewer === null) {
      sendText(
        response,
        401,
        "This needs the token that `stratumc ui` printed when it started (or, for a named reviewer, the one `stratumc ui add-user` printed): open the address it printed (http://…/?token=…), or send Authorization: Bearer <token>.\n",
      );
      return;
    }
    if (route === "GET /api/flows") {
      sendJson(response, 200, await reader.list());
    } else if (route === "GET /api/inbox") {
      const query = parseInboxQuery(url.searchParams);
      if ("error" in query) sendError(response, 400, "bad_request", query.error);
      else sendJson(response, 200, await reader.inbox(query));
    } else if (route === "GET /api/events") {
      streamChanges(request, response);
    } else {
      const flow = /^\/api\/flows\/([^/]+)(?:\/(gate|steps|audit))?$/.exec(url.pathname);
      const flowId = flow?.[1] === undefined ? null : safeDecode(flow[1]);
      const part = flow?.[2];
      const q = url.searchParams;
      const offset = count(q.get("offset"), 0);
      const limit = count(q.get("limit"), PAGE_SIZE);
      const stepsOffset = count(q.get("steps_offset"), -1);
      const auditOffset = count(q.get("audit_offset"), -1);
      if (flow === null || flowId === null)
        sendError(response, 404, "not_found", `no such page: ${url.pathname}`);
      else if (part === "gate" && method === "POST")
        await postGate(request, response, flowId, host, reviewer);
      else if (method !== "GET" || part === "gate")
        sendError(response, 405, "method_not_allowed", `${method} is not allowed on ${url.pathname}`);
      else if (offset === null || limit === null || stepsOffset === null || auditOffset === null)
        sendError(response, 400, "bad_request", "offset and limit must be whole numbers");
      else if (part === "steps") sendLoaded(response, flowId, await reader.steps(flowId, offset, limit));
      else if (part === "audit") sendLoaded(response, flowId, await reader.audit(flowId, offset, limit));
      else
        sendLoaded(
          response,
          flowId,
          pageFor(
            await reader.page(flowId, {
              limit,
              ...(stepsOffset === -1 ? {} : { stepsOffset }),
              ...(auditOffset === -1 ? {} : { auditOffset }),
            }),
            reviewer,
          ),
        );
    }
  }

  function sendLoaded<T>(response: ServerResponse, flowId: string, result: Loaded<T>): void {
    if (result.kind === "ok") sendJson(response, 200, result.value);
    else if (result.kind === "corrupt") sendError(response, 422, "flow_corrupt", result.problem);
    else sendError(response, 404, "not_found", `Flow '${flowId}' not found`);
  }

  function originsOf(host: string): Set<string> {
    return new Set(
      options.hosts === null ? [`http://${host}`] : [...options.hosts].map((h) => `http://${h}`),
    );
  }

  /** The page trades the token from its address for a session of its own (auth.ts). */
  function postSession(request: IncomingMessage, response: ServerResponse, host: string): void {
    const refused = options.auth.refuseChange(request, originsOf(host), false);
    if (refused !== null) {
      sendError(response, 403, "forbidden", refused);
      return;
    }
    if (!options.auth.isToken(UiAuth.bearer(request))) {
      sendError(
        response,
        401,
        "unauthorized",
        "The token is wrong. Open the address that `stratumc ui` printed.",
      );
      return;
    }
    request.resume();
    // The store's name comes with the session: a page opened at a flow shows it without asking
    // for the inbox, which reads every flow of the store.
    const session: SessionView = { ...options.auth.newSession(UiAuth.bearer(request)), home: source.home };
    sendJson(response, 200, session);
  }

  async function postGate(
    request: IncomingMessage,
    response: ServerResponse,
    flowId: string,
    host: string,
    reviewer: Reviewer,
  ): Promise<void> {
    const refused = options.auth.refuseChange(request, originsOf(host));
    if (refused !== null) {
      sendError(response, 403, "forbidden", refused);
      return;
    }
    const body = await readBody(request);
    const gate = body === null ? null : gateRequest(body);
    if (gate === null) {
      sendError(
        response,
        400,
        "bad_request",
        'the body must be JSON {"step_id": string, "outcome": "approve" | "revise" | "kill", "note": string, "revision": number}',
      );
      return;
    }
    const forbidden = await refuseGate(reader, flowId, gate.step_id, reviewer);
    if (forbidden !== null) {
      sendError(response, 403, "not_permitted", forbidden);
      return;
    }
    const reply = await reader.gate(flowId, gate, reviewer.name);
    sendJson(response, reply.status, reply.body);
  }

  function streamChanges(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      "Content-Type": "text/event-stream; charset=utf-8",
      Connection: "keep-alive",
    });
    response.write("retry: 1000\n\n");
    const stop = watch.subscribe(() => response.write(`event: change\ndata: {"at": ${Date.now()}}\n\n`));
    const keepalive = setInterval(() => response.write(": keepalive\n\n"), KEEPALIVE_MS);
    request.on("close", () => {
      clearInterval(keepalive);
      stop();
    });
  }

  return {
    listener,
    close: () => {
      watch.stop();
      reader.close();
    },
  };
}

/** The body as JSON; null when it is too large or not JSON. */
async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

function gateRequest(body: unknown): GateRequest | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const { step_id, outcome, note, revision } = b;
  if (typeof step_id !== "string" || typeof outcome !== "string" || !OUTCOMES.has(outcome)) return null;
  if (typeof note !== "string" || typeof revision !== "number" || !Number.isInteger(revision)) return null;
  return { step_id, outcome: outcome as GateOutcome, note, revision };
}

/** A whole number from a query parameter (`fallback` when absent); null when it is not one. */
function count(text: string | null, fallback: number): number | null {
  if (text === null) return fallback;
  if (!/^\d{1,9}$/.test(text)) return null;
  return Number(text);
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type });
  response.end(body);
}

function sendText(response: ServerResponse, status: number, text: string): void {
  send(response, status, "text/plain; charset=utf-8", text);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, "application/json; charset=utf-8", JSON.stringify(value));
}

function sendError(response: ServerResponse, status: number, code: string, message: string): void {
  const error: ApiError = { error: { code, message } };
  sendJson(response, status, error);
}
