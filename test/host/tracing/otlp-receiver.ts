// A test collector: a local HTTP server that accepts OTLP/HTTP trace exports (JSON or protobuf),
// decodes them with a decoder of its own (not the encoders under test) and keeps the spans.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly status: { readonly code: number; readonly message: string };
}

interface ReceivedRequest {
  readonly path: string;
  readonly contentType: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly resource: Readonly<Record<string, unknown>>;
  readonly scope: { readonly name: string; readonly version: string };
  readonly spans: readonly ReceivedSpan[];
}

export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  spans(): ReceivedSpan[];
  /** Resolves once at least `count` spans arrived (rejects after `timeoutMs`). */
  waitForSpans(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers["content-type"] ?? "");
      const decoded = contentType.includes("json") ? decodeJson(body.toString("utf8")) : decodeProto(body);
      requests.push({ path: req.url ?? "", contentType, headers: req.headers, ...decoded });
      res.writeHead(200, { "content-type": contentType }).end(contentType.includes("json") ? "{}" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const spans = () => requests.flatMap((r) => r.spans);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans,
    async waitForSpans(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (spans().length < count) {
        if (Date.now() > deadline) throw new Error(`only ${spans().length} of ${count} spans arrived`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return spans();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---- JSON ----

interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}
interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values: JsonAnyValue[] };
}

function decodeJson(text: string): Omit<ReceivedRequest, "path" | "contentType" | "headers"> {
  const request = JSON.parse(text) as {
    resourceSpans: {
      resource: { attributes: JsonKeyValue[] };
      scopeSpans: {
        scope: { name: string; version: string };
        spans: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind: number;
          startTimeUnixNano: string;
          endTimeUnixNano: string;
          attributes: JsonKeyValue[];
          status: { code?: number; message?: string };
        }[];
      }[];
    }[];
  };
  const rs = request.resourceSpans[0];
  const ss = rs?.scopeSpans[0];
  if (rs === undefined || ss === undefined) throw new Error("no resource or scope spans");
  return {
    resource: jsonAttributes(rs.resource.attributes),
    scope: ss.scope,
    spans: ss.spans.map((s) => ({
      traceId: s.traceId,
      spanId: s.spanId,
      parentSpanId: s.parentSpanId ?? "",
      name: s.name,
      kind: s.kind,
      startNs: BigInt(s.startTimeUnixNano),
      endNs: BigInt(s.endTimeUnixNano),
      attributes: jsonAttributes(s.attributes),
      status: { code: s.status.code ?? 0, message: s.status.message ?? "" },
    })),
  };
}

function jsonAttributes(list: readonly JsonKeyValue[]): Record<string, unknown> {
  return Object.fromEntries(list.map((kv) => [kv.key, jsonValue(kv.value)]));
}

function jsonValue(v: JsonAnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return v.arrayValue.values.map(jsonValue);
  throw new Error(`unknown AnyValue ${JSON.stringify(v)}`);
}

// ---- protobuf ----

type Field = { readonly no: number; readonly wire: number; readonly int: bigint; readonly bytes: Uint8Array };

/** The fields of one message, in order. */
function protoFields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      if (b === undefined) throw new Error("truncated varint");
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
      shift += 7n;
    }
  };
  const empty = new Uint8Array(0);
  while (i < buf.length) {
    const tag = varint();
    const no = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) out.push({ no, wire, int: varint(), bytes: empty });
    else if (wire === 1) {
      const bytes = buf.subarray(i, i + 8);
      i += 8;
      out.push({ no, wire, int: Buffer.from(bytes).readBigUInt64LE(0), bytes });
    } else if (wire === 2) {
      const n = Number(varint());
      out.push({ no, wire, int: 0n, bytes: buf.subarray(i, i + n) });
      i += n;
    } else if (wire === 5) {
      const bytes = buf.subarray(i, i + 4);
      i += 4;
      out.push({ no, wire, int: BigInt(Buffer.from(bytes).readUInt32LE(0)), bytes });
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}

const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const all = (fields: Field[], no: number) => fields.filter((f) => f.no === no);
const one = (fields: Field[], no: number) => fields.find((f) => f.no === no);

function decodeProto(body: Uint8Array): Omit<ReceivedRequest, "path" | "contentType" | "headers"> {
  const rs = one(protoFields(body), 1);
  if (rs === undefined) throw new Error("no resource_spans");
  const rsFields = protoFields(rs.bytes);
  const resource = protoFields(one(rsFields, 1)?.bytes ?? new Uint8Array(0));
  const ss = protoFields(one(rsFields, 2)?.bytes ?? new Uint8Array(0));
  const scope = protoFields(one(ss, 1)?.bytes ?? new Uint8Array(0));
  return {
    resource: protoAttributes(all(resource, 1)),
    scope: {
      name: text(one(scope, 1)?.bytes ?? new Uint8Array(0)),
      version: text(one(scope, 2)?.bytes ?? new Uint8Array(0)),
    },
    spans: all(ss, 2).map((f) => {
      const s = protoFields(f.bytes);
      const status = protoFields(one(s, 15)?.bytes ?? new Uint8Array(0));
      return {
        traceId: hex(one(s, 1)?.bytes ?? new Uint8Array(0)),
        spanId: hex(one(s, 2)?.bytes ?? new Uint8Array(0)),
        parentSpanId: hex(one(s, 4)?.bytes ?? new Uint8Array(0)),
        name: text(one(s, 5)?.bytes ?? new Uint8Array(0)),
        kind: Number(one(s, 6)?.int ?? 0n),
        startNs: one(s, 7)?.int ?? 0n,
        endNs: one(s, 8)?.int ?? 0n,
        attributes: protoAttributes(all(s, 9)),
        status: {
          code: Number(one(status, 3)?.int ?? 0n),
          message: text(one(status, 2)?.bytes ?? new Uint8Array(0)),
        },
      };
    }),
  };
}

function protoAttributes(list: Field[]): Record<string, unknown> {
  return Object.fromEntries(
    list.map((f) => {
      const kv = protoFields(f.bytes);
      return [
        text(one(kv, 1)?.bytes ?? new Uint8Array(0)),
        protoValue(one(kv, 2)?.bytes ?? new Uint8Array(0)),
      ];
    }),
  );
}

function protoValue(bytes: Uint8Array): unknown {
  const [f] = protoFields(bytes);
  if (f === undefined) throw new Error("empty AnyValue");
  switch (f.no) {
    case 1:
      return text(f.bytes);
    case 2:
      return f.int !== 0n;
    case 3:
      return Number(BigInt.asIntN(64, f.int));
    case 4:
      return Buffer.from(f.bytes).readDoubleLE(0);
    case 5:
      return all(protoFields(f.bytes), 1).map((v) => protoValue(v.bytes));
    default:
      throw new Error(`AnyValue field ${f.no}`);
  }
}
