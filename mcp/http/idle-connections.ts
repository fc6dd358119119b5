// Closes the kept-alive connections clients left idle, without ever closing one over a request that
// already arrived. Node's own keep-alive timer (server.keepAliveTimeout, 5 s by default) runs in the
// event loop's timers phase, before the poll phase reads what came in: when the server's process was
// held past the deadline (CPU starved on a loaded machine, a long collection, SIGSTOP) while a client
// reused the connection, Node closes it over the unread request, the client gets ECONNRESET, and
// the SDK client does not retry a POST: the call is lost. Here a sweep finds the connections idle
// past the deadline and closes them in setImmediate, after the poll phase, and only those on which
// nothing was read since their last answer. The deadline is long (65 s, told to clients in the
// Keep-Alive header) so that a client closes its side first: a connection the client closes loses
// nothing.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { performance } from "node:perf_hooks";

/** How long a connection may stay idle between requests before the server closes it. */
export const KEEP_ALIVE_IDLE_MS = 65_000;

interface Idle {
  /** performance.now() when the connection's last answer was written, or when it opened. */
  readonly since: number;
  /** socket.bytesRead then: a byte read since means a request is on its way. */
  readonly bytesRead: number;
}

export class IdleConnections {
  private readonly idle = new Map<Socket, Idle>();
  private readonly inProgress = new Map<Socket, number>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs: number = KEEP_ALIVE_IDLE_MS) {}

  /** Takes over `server`'s keep-alive timeout and starts the sweep. */
  watch(server: Server): void {
    server.keepAliveTimeout = 0;
    server.on("connection", (socket: Socket) => {
      this.rest(socket);
      socket.once("close", () => {
        this.idle.delete(socket);
        this.inProgress.delete(socket);
      });
    });
    server.on("request", (req: IncomingMessage, res: ServerResponse) => this.begin(req.socket, res));
    this.sweeper = setInterval(() => this.sweep(), Math.min(5_000, Math.max(10, this.idleMs / 4)));
    this.sweeper.unref();
    server.once("close", () => this.stop());
  }

  /** The Keep-Alive header's value for answers: clients should let go before the server does. */
  get keepAliveHeader(): string {
    return `timeout=${Math.max(1, Math.floor(this.idleMs / 1000))}`;
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  private begin(socket: Socket, res: ServerResponse): void {
    this.idle.delete(socket);
    this.inProgress.set(socket, (this.inProgress.get(socket) ?? 0) + 1);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const left = (this.inProgress.get(socket) ?? 1) - 1;
      if (left > 0) this.inProgress.set(socket, left);
      else {
        this.inProgress.delete(socket);
        if (!socket.destroyed) this.rest(socket);
      }
    };
    res.once("finish", end);
    res.once("close", end);
  }

  private rest(socket: Socket): void {
    this.idle.set(socket, { since: performance.now(), bytesRead: socket.bytesRead });
  }

  private sweep(): void {
    const now = performance.now();
    const due = [...this.idle].filter(([, idle]) => now - idle.since >= this.idleMs);
    if (due.length === 0) return;
    // After the poll phase: a request that arrived while the process was held has been read by then.
    setImmediate(() => {
      for (const [socket, idle] of due) {
        if (this.idle.get(socket) === idle && socket.bytesRead === idle.bytesRead) {
          this.idle.delete(socket);
          socket.destroy();
        }
      }
    });
  }
}
