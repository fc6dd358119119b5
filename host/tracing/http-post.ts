// One POST of an export request with node:http(s), bounded by a timeout. Resolves with null on a
// 2xx answer and with the reason otherwise; never rejects. Keep-alive sockets do not hold the
// process open (the request's socket is unref'd). node:http(s) is loaded on the first export, so
// a server without tracing, or one that has not exported yet, does not pay for it at start-up.
import type { request as httpRequest } from "node:http";

export interface PostRequest {
  readonly url: string;
  readonly headers: ReadonlyMap<string, string>;
  readonly contentType: string;
  readonly body: Uint8Array;
  readonly timeoutMs: number;
}

/** Posts; the promise says why it failed (null: accepted). `abort` gives up at once. */
export type Post = (request: PostRequest) => { readonly done: Promise<string | null>; abort(): void };

export const httpPost: Post = (req) => {
  let abort = (): void => undefined;
  let aborted = false;
  const done = new Promise<string | null>((resolve) => {
    const url = new URL(req.url);
    const loaded: Promise<{ request: typeof httpRequest }> =
      url.protocol === "https:" ? import("node:https") : import("node:http");
    loaded.then(
      (http) => {
        if (aborted) resolve("aborted at shutdown");
        else abort = start(http.request, url, req, resolve);
      },
      (e: unknown) => resolve(e instanceof Error ? e.message : String(e)),
    );
  });
  return {
    done,
    abort: () => {
      aborted = true;
      abort();
    },
  };
};

/** Sends the request; returns how to abort it. */
function start(
  send: typeof httpRequest,
  url: URL,
  req: PostRequest,
  resolve: (problem: string | null) => void,
): () => void {
  const headers: Record<string, string> = {};
  for (const [k, v] of req.headers) headers[k] = v;
  headers["content-type"] = req.contentType;
  headers["content-length"] = String(req.body.length);
  const request = send(url, { method: "POST", headers, timeout: req.timeoutMs }, (response) => {
    response.resume(); // the body (a partial-success message at most) is not needed
    response.on("end", () => {
      const code = response.statusCode ?? 0;
      resolve(code >= 200 && code < 300 ? null : `HTTP ${code}`);
    });
    response.on("error", (e) => resolve(e.message));
  });
  request.on("socket", (socket) => socket.unref());
  request.on("timeout", () => request.destroy(new Error(`no answer within ${req.timeoutMs} ms`)));
  request.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  request.end(req.body);
  return () => request.destroy(new Error("aborted at shutdown"));
}
