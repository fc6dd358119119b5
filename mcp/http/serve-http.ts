// Serving MCP over Streamable HTTP (docs/reference/runtime.md §16.11, docs/guides/mcp-server-http.md):
// node:http on the address `--http` names, one endpoint `/mcp`, one MCP session per
// Mcp-Session-Id (mcp-session.ts) over the process's one engine and store. Each request passes, in
// this order: the Host and Origin checks (403, request-guard.ts), the bearer token (401,
// bearer-token.ts), the path (404), then its body is read with a limit and decoded as a stdio line
// is (request-body.ts). Refusals are short JSON-RPC errors; nothing here ever writes the token.
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from "node:http";
import { type AddressInfo, Server as NetServer } from "node:net";
import { isInitializeRequest, type JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AgentRuns } from "../../host/index";
import type { StratumApi } from "../../interpreter/index";
import type { CallEvents } from "../call-events";
import { CheckJobs } from "../check-jobs";
import { FuzzJobs } from "../fuzz-jobs";
import { type McpServerOptions, screenRequest } from "../server";
import { ANSWER_WAIT_MS, CANCEL_WAIT_MS } from "../stop-waits";
import { TokenCheck } from "./bearer-token";
import type { HttpSettings } from "./http-settings";
import { IdleConnections } from "./idle-connections";
import { isLoopbackHost, type ListenAddress, urlHost } from "./listen-address";
import { McpSession } from "./mcp-session";
import { OpenResponses } from "./open-responses";
import { ClientGone, decodeBody, type HttpRefusal, readBody, tooLarge } from "./request-body";
import { RequestGuard } from "./request-guard";
import { SessionTable } from "./session-table";
import { HttpSettingError } from "./setting-error";

/** How long a stopping server waits for answers and stream ends to be written to their sockets. */
const WRITE_WAIT_MS = 5_000;

export interface ServeHttpOptions {
  readonly api: StratumApi;
  readonly version: string;
  readonly listen: ListenAddress;
  readonly settings: HttpSettings;
  /** The prefix of the server's log lines (`stratum-mcp`, `stratumc`). */
  readonly programName: string;
  /** The server's log (standard error): whole lines with their newline. */
  readonly log: (text: string) => void;
  /** Stops the server: no new connections, the calls in progress finish (within a bound), then it closes. */
  readonly stop?: AbortSignal;
  readonly events?: CallEvents;
  readonly fuzz?: FuzzJobs;
  readonly checks?: CheckJobs;
  readonly agents?: AgentRuns;
  /** What each session's server shares: gate setting, resources, prompts, the client log. */
  readonly session?: Pick<McpServerOptions, "gates" | "resources" | "prompts" | "log">;
}

/** Serves until `stop` fires and the server has closed; a failure to listen rejects. */
export async function serveHttp(options: ServeHttpOptions): Promise<void> {
  const { settings, programName, log } = options;
  const toLog = (...parts: unknown[]) => log(`${parts.map(String).join(" ")}\n`);
  console.log = toLog;
  console.info = toLog;
  console.debug = toLog;
  const fuzz = options.fuzz ?? new FuzzJobs();
  const checks = options.checks ?? new CheckJobs();
  const serverOptions = {
    api: options.api,
    version: options.version,
    fuzz,
    checks,
    ...(options.events === undefined ? {} : { events: options.events }),
    ...(options.agents === undefined ? {} : { agents: options.agents }),
    ...options.session,
  };
  const sessions = new SessionTable<McpSession>(settings.sessionIdleMs);
  const tokens = new TokenCheck(settings.token);
  const state = { stopping: false, opening: 0, guard: null as RequestGuard | null };
  const open = new OpenResponses();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const guard = state.guard;
    if (guard === null) return refuse(res, { status: 503, code: -32000, message: "Service Unavailable" });
    const refusal = guard.check(req.headers.host, header(req, "origin"));
    if (refusal !== null) return refuse(res, { ...refusal, code: -32000 });
    if (!tokens.accepts(header(req, "authorization"))) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="stratum-mcp"');
      return refuse(res, {
        status: 401,
        code: -32000,
        message: "Unauthorized: a valid bearer token is required",
      });
    }
    if (pathOf(req.url) !== "/mcp") {
      return refuse(res, { status: 404, code: -32000, message: "Not Found: the MCP endpoint is /mcp" });
    }
    if (state.stopping) {
      // A connection kept alive from before the stop: this answer is its last.
      res.setHeader("Connection", "close");
      return refuse(res, {
        status: 503,
        code: -32000,
        message: "Service Unavailable: the server is stopping",
      });
    }
    const sessionId = header(req, "mcp-session-id");
    if (req.method === "POST") return post(req, res, sessionId);
    if (req.method === "GET" || req.method === "DELETE") {
      const session = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (sessionId === undefined || session === undefined) return noSession(res, sessionId);
      const end = sessions.begin(sessionId);
      res.once("close", end);
      return session.transport.handleRequest(req, res);
    }
    res.setHeader("Allow", "GET, POST, DELETE");
    return refuse(res, { status: 405, code: -32000, message: "Method Not Allowed" });
  };

  const post = async (
    req: IncomingMessage,
    res: ServerResponse,
    sessionId: string | undefined,
  ): Promise<void> => {
    try {
      const bytes = await readBody(req);
      if (bytes === null) {
        res.setHeader("Connection", "close");
        return refuse(res, tooLarge());
      }
      const body = decodeBody(bytes);
      if (!body.ok) return refuse(res, body);
      const screened = screen(body.json);
      if (screened !== null) return answerError(res, screened.id, screened.code, screened.message);
      if (sessionId === undefined) {
        if (!isInitializeRequest(body.json)) {
          return refuse(res, {
            status: 400,
            code: -32000,
            message: "Bad Request: no Mcp-Session-Id header (a session starts with initialize)",
          });
        }
        if (sessions.size + state.opening >= settings.maxSessions) {
          return refuse(res, {
            status: 503,
            code: -32000,
            message: `Service Unavailable: ${settings.maxSessions} sessions are open, the most this server keeps`,
          });
        }
        state.opening += 1;
        try {
          const opened = await openSession();
          await opened.post(req, res, body.json, null);
          // An initialize the transport refused (a wrong Accept header, say) opened no session.
          if (opened.transport.sessionId === undefined) await opened.close();
        } finally {
          state.opening -= 1;
        }
        return;
      }
      const session = sessions.get(sessionId);
      if (session === undefined) return noSession(res, sessionId);
      res.once("close", sessions.begin(sessionId));
      const args = "toolArguments" in body ? { value: body.toolArguments } : null;
      if (!(await session.post(req, res, body.json, args))) {
        return answerError(
          res,
          idOf(body.json),
          -32600,
          "Invalid Request: the id is already used by a request in progress; this request was not run",
        );
      }
    } catch (e) {
      // A client that went away mid-body (nothing to answer, nothing worth a log line), or a
      // failure of the transport: never a stack trace.
      if (e instanceof ClientGone) res.destroy();
      else {
        if (!res.headersSent) refuse(res, { status: 500, code: -32603, message: "Internal error" });
        else res.destroy();
        log(`${programName}: http: ${e instanceof Error ? e.message : String(e)}\n`);
      }
    }
  };

  const openSession = async (): Promise<McpSession> => {
    const session: McpSession = new McpSession(serverOptions, (id) => {
      sessions.add(id, session);
      session.server.onclose = () => sessions.remove(id);
    });
    await session.start();
    return session;
  };

  const idle = new IdleConnections(settings.keepAliveMs);
  const http = createServer((req, res) => {
    res.setHeader("Keep-Alive", idle.keepAliveHeader);
    open.track(res, req.method === "POST");
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) refuse(res, { status: 500, code: -32603, message: "Internal error" });
      log(`${programName}: http: ${e instanceof Error ? e.message : String(e)}\n`);
    });
  });
  idle.watch(http);
  await listen(http, options.listen);
  const bound = http.address() as AddressInfo;
  state.guard = new RequestGuard({
    host: options.listen.host,
    port: bound.port,
    allowedHosts: settings.allowedHosts,
    allowedOrigins: settings.allowedOrigins,
  });
  log(
    `${programName}: serving MCP over Streamable HTTP at http://${urlHost(options.listen.host)}:${bound.port}/mcp\n`,
  );
  if (!isLoopbackHost(options.listen.host)) {
    log(
      `${programName}: warning: ${options.listen.host} is reachable from other machines; the bearer token is the only protection (put TLS in front on a network you do not trust)\n`,
    );
  }
  if (settings.tokenGenerated) {
    log(
      `${programName}: bearer token (shown only now; set STRATUM_MCP_TOKEN to choose one): ${settings.token}\n`,
    );
  }
  const sweep = setInterval(
    () => void sessions.expire().catch(() => undefined),
    Math.min(60_000, Math.max(250, settings.sessionIdleMs / 4)),
  );
  sweep.unref();

  const closed = new Promise<void>((resolve) => http.once("close", () => resolve()));
  /** Stops the running jobs; resolves when the agents' calls have answered. */
  const stopJobs = (): Promise<void> => {
    fuzz.shutdown();
    checks.shutdown();
    return options.agents?.shutdown() ?? Promise.resolve();
  };
  const stop = async (): Promise<void> => {
    if (state.stopping) return;
    state.stopping = true;
    clearInterval(sweep);
    // No new connections. Not http.close(): it also destroys the kept-alive connections it deems
    // idle, among them one whose answer has ended but is still being written. A request on a
    // connection still open is answered 503 instead.
    NetServer.prototype.close.call(http);
    // The calls in progress finish and their answers are written, within the grace period. Then
    // the jobs still running are stopped (their calls answer that the server stopped them), and a
    // request still without an answer after that gets an error saying it was cancelled.
    if (!(await open.postsDone(settings.stopGraceMs))) {
      const agentsStopped = stopJobs();
      const answered = await Promise.race([
        open.postsDone(CANCEL_WAIT_MS),
        agentsStopped.then(() => open.postsDone(ANSWER_WAIT_MS)),
      ]);
      if (!answered) {
        const grace = settings.stopGraceMs / 1000;
        const message = `Cancelled: the server is stopping and this request did not finish within the ${grace} s it allows (STRATUM_MCP_STOP_GRACE)`;
        await Promise.all(sessions.all().map((session) => session.answerRunning(-32000, message)));
        await open.postsDone(WRITE_WAIT_MS);
      }
    }
    void stopJobs();
    // Then the sessions close (their event streams end) and, once that is written, the connections.
    await sessions.closeAll();
    await open.allDone(WRITE_WAIT_MS);
    http.closeAllConnections();
  };
  if (options.stop?.aborted) void stop();
  else options.stop?.addEventListener("abort", () => void stop(), { once: true });
  await closed;
}

function listen(http: NodeServer, address: ListenAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    http.once("error", (e: Error) =>
      reject(new HttpSettingError(`--http ${urlHost(address.host)}:${address.port}: ${e.message}`)),
    );
    http.listen(address.port, address.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
}

/** A refusal as a JSON-RPC error with no id, with its HTTP status. */
function refuse(res: ServerResponse, refusal: HttpRefusal): void {
  answer(res, refusal.status, null, refusal.code, refusal.message);
}

/** A request answered with a JSON-RPC error without reaching the server (HTTP 200, as any answer). */
function answerError(res: ServerResponse, id: string | number | null, code: number, message: string): void {
  answer(res, 200, id, code, message);
}

function answer(
  res: ServerResponse,
  status: number,
  id: string | number | null,
  code: number,
  message: string,
): void {
  const body = JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function noSession(res: ServerResponse, sessionId: string | undefined): void {
  if (sessionId === undefined) {
    refuse(res, { status: 400, code: -32000, message: "Bad Request: no Mcp-Session-Id header" });
  } else {
    refuse(res, { status: 404, code: -32001, message: "Session not found" });
  }
}

/** A request's parameters the SDK would reject with its zod dump: the stdio server's short error. */
function screen(json: unknown): { id: string | number; code: number; message: string } | null {
  if (typeof json !== "object" || json === null || !("method" in json) || !("id" in json)) return null;
  const request = json as JSONRPCRequest;
  if (
    typeof request.method !== "string" ||
    (typeof request.id !== "string" && typeof request.id !== "number")
  ) {
    return null;
  }
  const rejection = screenRequest(request);
  return rejection === undefined ? null : { id: request.id, ...rejection };
}

function idOf(json: unknown): string | number | null {
  const id = typeof json === "object" && json !== null && "id" in json ? (json as { id: unknown }).id : null;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** A header's one value (a repeated header is not accepted as either of its values). */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : undefined;
}

function pathOf(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0] ?? "/";
  return path.replace(/\/+$/, "") || "/";
}
