// Check workers whose checks run only when a test lets them: each worker is the real worker code
// (in this thread, lsp/workers.ts), but a posted `check` waits in front of the worker, with
// everything posted after it, until `release()`, as a busy worker's messages wait in reality.
import type { FromWorker, ToWorker } from "../../../lsp/check-worker";
import { type CheckWorker, inThreadWorkers, type WorkerFactory } from "../../../lsp/workers";

export class GatedWorker implements CheckWorker {
  private readonly queue: ToWorker[] = [];
  private held: ToWorker | null = null;
  private readonly exits: (() => void)[] = [];
  terminated = false;
  /** Versions this worker was asked to check, in order. */
  readonly checks: number[] = [];

  constructor(private readonly inner: CheckWorker) {}

  /** The version whose check waits for `release`, if any. */
  get waiting(): number | null {
    return this.held?.kind === "check" ? this.held.version : null;
  }

  release(): void {
    const check = this.held;
    if (check === null) throw new Error("no check is waiting");
    this.held = null;
    this.inner.post(check);
    this.flush();
  }

  /** The worker dies (as a worker thread out of memory would). */
  crash(): void {
    for (const exit of this.exits) exit();
  }

  post(message: ToWorker): void {
    if (message.kind === "check") this.checks.push(message.version);
    this.queue.push(message);
    this.flush();
  }

  onMessage(listener: (message: FromWorker) => void): void {
    this.inner.onMessage(listener);
  }

  onExit(listener: () => void): void {
    this.exits.push(listener);
  }

  terminate(): void {
    this.terminated = true;
    this.held = null;
    this.queue.length = 0;
    this.inner.terminate();
  }

  private flush(): void {
    while (this.held === null && this.queue.length > 0) {
      const message = this.queue.shift() as ToWorker;
      if (message.kind === "check") this.held = message;
      else this.inner.post(message);
    }
  }
}

export function gatedWorkers(): { readonly factory: WorkerFactory; readonly started: GatedWorker[] } {
  const inner = inThreadWorkers();
  const started: GatedWorker[] = [];
  return {
    started,
    factory: () => {
      const worker = new GatedWorker(inner());
      started.push(worker);
      return worker;
    },
  };
}
