// The server's log, to standard error as always (warnings and errors) and to each MCP client as
// notifications/message (the `logging` capability). A client gets the messages at or above its level: `warning` until it
// sends logging/setLevel (the protocol names no default; warnings and errors are what standard
// error carried, so a client that asks for nothing still hears of a misconfiguration). Lines
// logged before a client is initialized (the start-up warnings) are kept and sent to each client
// once it is. Every line is scrubbed of the environment's secrets (log-secrets.ts), on standard
// error too; what a client receives is cut to MAX_DATA_CHARS, at most MAX_PER_SECOND messages a
// second (the rest counted and said).
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type LoggingLevel,
  LoggingLevelSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { scrubSecrets } from "./log-secrets";

export type { LoggingLevel };

/** A client's level until it sets one. */
const DEFAULT_CLIENT_LEVEL: LoggingLevel = "warning";
/** The least severe level written on standard error. */
const STDERR_LEVEL: LoggingLevel = "warning";
/** The longest message a client receives (longer ones are cut, the cut said). */
export const MAX_DATA_CHARS = 4_000;
/** Messages a second to one client, at most. */
export const MAX_PER_SECOND = 20;
/** Start-up lines kept for clients not initialized yet. */
const MAX_BACKLOG = 50;

const SEVERITY: ReadonlyMap<LoggingLevel, number> = new Map(LoggingLevelSchema.options.map((l, i) => [l, i]));

/** Whether a message at `level` reaches a client whose level is `threshold`. */
export function reaches(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return (SEVERITY.get(level) ?? 0) >= (SEVERITY.get(threshold) ?? 0);
}

export interface ClientLogOptions {
  /** Standard error: whole lines with their newline. */
  readonly stderr: (text: string) => void;
  /** The program's name: each standard-error line starts with it, and it is the clients' `logger`. */
  readonly programName: string;
  /** Values never sent to a client (secretsOf(env)). */
  readonly secrets?: readonly string[];
  readonly now?: () => number;
}

interface Entry {
  readonly level: LoggingLevel;
  readonly data: string;
}

interface Client {
  level: LoggingLevel;
  ready: boolean;
  windowStart: number;
  sentInWindow: number;
  dropped: number;
  readonly send: (entry: Entry) => void;
}

export class ClientLog {
  private readonly clients = new Set<Client>();
  private readonly backlog: Entry[] = [];
  private anyReady = false;
  private readonly now: () => number;

  constructor(private readonly options: ClientLogOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * One line (no newline) at `level`: to every client whose level it reaches, and on standard
   * error from `warning` up (what it always carried; the `info` lines are for clients that ask).
   */
  log(level: LoggingLevel, text: string): void {
    // Standard error is kept in MCP clients' log files too: the same fence.
    const scrubbed = scrubSecrets(text, this.options.secrets ?? []);
    if (reaches(level, STDERR_LEVEL)) this.options.stderr(`${this.options.programName}: ${scrubbed}\n`);
    const entry: Entry = { level, data: this.clientText(scrubbed) };
    if (!this.anyReady && this.backlog.length < MAX_BACKLOG) this.backlog.push(entry);
    for (const client of this.clients) if (client.ready) this.deliver(client, entry);
  }

  warn(text: string): void {
    this.log("warning", text);
  }

  error(text: string): void {
    this.log("error", text);
  }

  /**
   * Sends this log to `server`'s client (declared with the `logging` capability): its level from
   * logging/setLevel, messages once it is initialized. Returns a detach function.
   */
  attach(server: Server): () => void {
    const client: Client = {
      level: DEFAULT_CLIENT_LEVEL,
      ready: false,
      windowStart: 0,
      sentInWindow: 0,
      dropped: 0,
      send: (entry) => {
        // A server closed (its client gone, an HTTP session ended) is forgotten.
        if (server.transport === undefined) {
          this.clients.delete(client);
          return;
        }
        server
          .notification({
            method: "notifications/message",
            params: { level: entry.level, logger: this.options.programName, data: entry.data },
          })
          // A client gone while a message was on its way: nothing to tell anyone.
          .catch(() => undefined);
      },
    };
    this.clients.add(client);
    server.setRequestHandler(SetLevelRequestSchema, (request) => {
      client.level = request.params.level;
      return {};
    });
    const previous = server.oninitialized;
    server.oninitialized = () => {
      previous?.();
      client.ready = true;
      this.anyReady = true;
      for (const entry of this.backlog) this.deliver(client, entry);
    };
    return () => {
      this.clients.delete(client);
    };
  }

  /** Clients attached and not yet forgotten (tests). */
  get attached(): number {
    return this.clients.size;
  }

  private clientText(scrubbed: string): string {
    if (scrubbed.length <= MAX_DATA_CHARS) return scrubbed;
    return `${scrubbed.slice(0, MAX_DATA_CHARS)}… (${scrubbed.length - MAX_DATA_CHARS} more characters on the server's standard error)`;
  }

  private deliver(client: Client, entry: Entry): void {
    if (!reaches(entry.level, client.level)) return;
    const now = this.now();
    if (now - client.windowStart >= 1000) {
      const dropped = client.dropped;
      client.windowStart = now;
      client.sentInWindow = 0;
      client.dropped = 0;
      if (dropped > 0) {
        client.sentInWindow++;
        client.send({
          level: "warning",
          data: `${dropped} log message(s) not sent (more than ${MAX_PER_SECOND} a second); the server's standard error has them`,
        });
      }
    }
    if (client.sentInWindow >= MAX_PER_SECOND) {
      client.dropped++;
      return;
    }
    client.sentInWindow++;
    client.send(entry);
  }
}
