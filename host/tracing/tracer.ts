// OTLP traces for the MCP server (docs/guides/tracing.md): the engine's observer (interpreter:
// FlowObserver) turning events into spans for the exporter, or null when the environment asks for
// no tracing. Nothing here can fail a tool call: the observer queues and returns.
import type { FlowObserver } from "../../interpreter/index";
import { type Env, traceConfig } from "./config";
import { MAX_IN_FLIGHT, SpanExporter } from "./exporter";
import { createHttpPost, type Post } from "./http-post";
import type { Resource } from "./span";
import { spanOf } from "./spans";

export interface Tracer {
  readonly observer: FlowObserver;
  /** Sends the spans still queued, waiting at most `waitMs` (the server's input ended). */
  shutdown(waitMs: number): Promise<void>;
}

export interface TracerOptions {
  readonly env: Env;
  /** The product version (the instrumentation scope's version). */
  readonly version: string;
  /** One line per problem, without the program name or a newline. */
  readonly warn: (line: string) => void;
  /** Tests: instead of node:http. */
  readonly post?: Post;
}

/** Shutdown's default bound (docs/guides/tracing.md, "Export"). */
export const SHUTDOWN_WAIT_MS = 2_000;

export function createTracer(options: TracerOptions): Tracer | null {
  const config = traceConfig(options.env, options.warn);
  if (config === null) return null;
  const resource: Resource = {
    attributes: [...config.resourceAttributes, ["telemetry.sdk.name", "stratumc"]],
    scopeName: "stratumc",
    scopeVersion: options.version,
  };
  const exporter = new SpanExporter(
    config,
    resource,
    spanOf,
    options.post ?? createHttpPost(MAX_IN_FLIGHT),
    options.warn,
  );
  return {
    observer: (events) => exporter.add(events),
    shutdown: (waitMs) => exporter.shutdown(waitMs),
  };
}
