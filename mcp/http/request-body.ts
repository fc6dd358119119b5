// The body of a POST to the HTTP server, read here rather than by the SDK's transport: with a size
// limit, and decoded as the stdio transport decodes a line (../request-line.ts), so a tool's
// arguments keep their kinds (`1.0` stays a float, big integers stay exact) over HTTP too. What
// cannot be served is a short JSON-RPC error with its HTTP status, never a stack trace:
// - more than MAX_BODY_BYTES: 413;
// - not JSON: 400, -32700;
// - a batch (a JSON array: the protocol since 2025-06-18 has none): 400, -32600;
// - a message other than a tools/call nested deeper than MAX_VALUE_DEPTH: 400, -32600 (a
//   tools/call's arguments are judged by its tool, which names the argument past the limits).
import type { IncomingMessage } from "node:http";
import { MAX_VALUE_DEPTH, tooDeep, valueShape } from "../../interpreter/index";
import type { PyValue } from "../../stdlib/index";
import { parseRequestLine } from "../request-line";

/** Larger than the largest spec (8 MiB) written as a JSON string, with room for the rest. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface HttpRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

export type DecodedBody =
  | {
      readonly ok: true;
      /** The message as the SDK's transport takes it (`parsedBody`). */
      readonly json: unknown;
      /** A tools/call request's `params.arguments`, decoded kind-preservingly. */
      readonly toolArguments?: PyValue | undefined;
    }
  | ({ readonly ok: false } & HttpRefusal);

/**
 * The body's bytes, or null when it passed `limit`: a declared Content-Length over it is refused
 * before anything is read; otherwise what is past the limit is read and dropped (the node server's
 * request timeout bounds that), so the client still gets the 413.
 */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<Buffer | null> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on("end", () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

/** The client closed the connection before its body ended: nobody is left to answer. */
export class ClientGone extends Error {
  constructor() {
    super("the client closed the connection before the body ended");
  }
}

export function tooLarge(limit: number = MAX_BODY_BYTES): HttpRefusal {
  return { status: 413, code: -32600, message: `Request body larger than ${limit} bytes` };
}

export function decodeBody(bytes: Buffer): DecodedBody {
  const text = bytes.toString("utf8");
  const parsed = parseRequestLine(text);
  if (parsed === null)
    return { ok: false, status: 400, code: -32700, message: "Parse error: the body is not JSON" };
  const json = parsed.json;
  if (Array.isArray(json)) {
    return { ok: false, status: 400, code: -32600, message: "Invalid Request: batches are not supported" };
  }
  if (!("toolArguments" in parsed)) {
    const { depth } = valueShape(json);
    if (depth > MAX_VALUE_DEPTH)
      return { ok: false, status: 400, code: -32600, message: `Invalid Request: ${tooDeep(depth)}` };
  }
  return { ok: true, json, toolArguments: parsed.toolArguments };
}
