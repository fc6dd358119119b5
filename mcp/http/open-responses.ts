// The responses of the HTTP server not yet written, for a stop that must not cut them. A POST counts
// from its first byte until its answer has been handed to the operating system ('finish'), or its
// connection is gone: not until the SDK's transport says it is done. The transport's handler
// resolves as soon as it closes the answer's event stream, when an answer larger than the socket's
// buffer may still be waiting in it; closing the connections then would cut the answer.
import type { ServerResponse } from "node:http";

export class OpenResponses {
  private readonly open = new Set<ServerResponse>();
  private posts = 0;
  private readonly changed = new Set<() => void>();

  /** Follows a response (a POST's counts as a call in progress) until it is written or gone. */
  track(res: ServerResponse, isPost: boolean): void {
    this.open.add(res);
    if (isPost) this.posts += 1;
    void written(res).then(() => {
      this.open.delete(res);
      if (isPost) this.posts -= 1;
      for (const notify of [...this.changed]) notify();
    });
  }

  /** Resolves true once no POST is in progress, false if some still are after `ms`. */
  postsDone(ms: number): Promise<boolean> {
    return this.until(() => this.posts === 0, ms);
  }

  /** Resolves true once every response is written (the event streams ended too), false after `ms`. */
  allDone(ms: number): Promise<boolean> {
    return this.until(() => this.open.size === 0, ms);
  }

  private until(done: () => boolean, ms: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (result: boolean): void => {
        clearTimeout(timer);
        this.changed.delete(check);
        resolve(result);
      };
      const check = (): void => {
        if (done()) finish(true);
      };
      const timer = setTimeout(() => finish(false), ms);
      timer.unref();
      this.changed.add(check);
    });
  }
}

/** Resolves when the response's last byte was handed to the socket, or its connection closed. */
function written(res: ServerResponse): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    res.once("finish", () => resolve());
    res.once("close", () => resolve());
  });
}
