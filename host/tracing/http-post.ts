// One POST of an export request with node:http(s). Resolves with null on a 2xx answer and with the
// reason otherwise; never rejects, never throws. Every request ends by its deadline, counted from
// its start (an idle timeout would never fire on a collector that dribbles a byte now and then).
// Requests go through a keep-alive agent of at most `maxSockets` sockets, so telemetry holds that
// many descriptors at most and a healthy collector's connections are reused. Sockets do not hold
// the process open (unref'd). node:http(s) is loaded on the first export, so a server without
// tracing, or one that has not exported yet, does not pay for it at start-up.
import type { Agent, request as httpRequest } from "node:http";

interface PostRequest {
  readonly url: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly contentType: string;
  readonly body: Uint8Array;
  /** From the start to the end of the request (0: none). */
  readonly timeoutMs: number;
}

/** Posts; the promise says why it failed (null: accepted). `abort` gives up at once. */
export type Post = (request: PostRequest) => { readonly done: Promise<string | null>; abort(): void };

interface HttpModule {
  readonly request: typeof httpRequest;
  readonly Agent: new (options: {
    keepAlive: boolean;
    maxSockets: number;
    maxFreeSockets: number;
    timeout: number;
  }) => Agent;
}

/** A free socket is closed after this long unused (below Node servers' 5 s keep-alive timeout). */
const FREE_SOCKET_MS = 4_000;

/** A Post whose requests share one agent per protocol, of at most `maxSockets` sockets each. */
export function createHttpPost(maxSockets: number): Post {
  const agents = new Map<string, { readonly http: HttpModule; readonly agent: Agent }>();
  const load = async (protocol: string) => {
    const known = agents.get(protocol);
    if (known !== undefined) return known;
    const http: HttpModule = protocol === "https:" ? await import("node:https") : await import("node:http");
    const loaded = agents.get(protocol) ?? {
      http,
      agent: new http.Agent({
        keepAlive: true,
        maxSockets,
        maxFreeSockets: maxSockets,
        timeout: FREE_SOCKET_MS,
      }),
    };
    agents.set(protocol, loaded);
    return loaded;
  };
  return (req) => {
    let abort = (): void => undefined;
    const done = new Promise<string | null>((resolve) => {
      let finished = false;
      let destroy = (): void => undefined;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      /** Settles once; `cut` destroys the request (its socket is not reused). */
      const end = (problem: string | null, cut = false): void => {
        if (finished) return;
        finished = true;
        clearTimeout(deadline);
        if (cut) destroy();
        resolve(problem);
      };
      abort = () => end("aborted at shutdown", true);
      if (req.timeoutMs > 0) {
        deadline = setTimeout(() => end(`no answer within ${req.timeoutMs} ms`, true), req.timeoutMs);
        deadline.unref();
      }
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        end("not a URL");
        return;
      }
      load(url.protocol).then(
        ({ http, agent }) => {
          if (finished) return;
          try {
            destroy = start(http.request, agent, url, req, end);
          } catch (e) {
            end(reason(e));
          }
        },
        (e: unknown) => end(reason(e)),
      );
    });
    return { done, abort: () => abort() };
  };
}

/** Sends the request; returns how to destroy it. */
function start(
  send: typeof httpRequest,
  agent: Agent,
  url: URL,
  req: PostRequest,
  end: (problem: string | null) => void,
): () => void {
  const headers: Record<string, string> = {};
  for (const [k, v] of req.headers) headers[k] = v;
  headers["content-type"] = req.contentType;
  headers["content-length"] = String(req.body.length);
  const request = send(url, { method: "POST", headers, agent }, (response) => {
    response.resume(); // the body (a partial-success message at most) is not needed
    response.on("end", () => {
      const code = response.statusCode ?? 0;
      end(code >= 200 && code < 300 ? null : `HTTP ${code}`);
    });
    response.on("error", (e) => end(reason(e)));
  });
  request.on("socket", (socket) => socket.unref());
  request.on("error", (e) => end(reason(e)));
  request.end(req.body);
  return () => request.destroy();
}

/** An error's code (ECONNREFUSED…) or message: never a header value or the URL's password. */
function reason(e: unknown): string {
  if (e instanceof Error) return (e as NodeJS.ErrnoException).code ?? e.message;
  return String(e);
}
