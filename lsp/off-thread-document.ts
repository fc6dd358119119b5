// A huge document, checked off the request path. Two check workers take
// turns: while one checks the newest version, the other holds the last checked tree and answers
// hover, completion and the other read-only requests from it at once, positions mapped between
// its text and the current one (version-map.ts; withheld inside the changed region). When the
// check ends, the roles swap. The server's thread only routes requests, maps positions and
// publishes.
//
// Scheduling (`pump`): a version waiting for diagnostics starts on an idle worker, the one holding
// the older tree, but never on the only idle holder of a tree while the other worker is busy (then
// no one could answer); with no tree anywhere it starts at once. A check of an outdated version
// runs to its end (a worker cannot be interrupted without losing its incremental state): its tree
// serves requests, its diagnostics are never published. When nothing waits, the worker holding
// the older tree (or none) re-checks the newest text, so the next edit is an incremental check
// there too. Edit requests (rename, quick fixes) wait for the current version's tree; a newer
// version makes them fail with ContentModified, and every wait honours $/cancelRequest.

import {
  type CancellationToken,
  LSPErrorCodes,
  type Diagnostic as LspDiagnostic,
  ResponseError,
} from "vscode-languageserver/node";
import type { ReferenceVersion } from "../checker/index";
import type { AnswerMessage, FromWorker } from "./check-worker";
import type { PositionIndex } from "./positions";
import {
  type Answers,
  type Method,
  type Requests,
  type Results,
  type ServiceRequest,
  toProtocol,
} from "./requests";
import { IDENTITY, type VersionMap, versionMap } from "./version-map";
import type { CheckWorker, WorkerFactory } from "./workers";

/** A version of the document as the server's thread has it. */
export interface CurrentVersion {
  readonly version: number;
  readonly text: string;
  readonly positions: PositionIndex;
}

export interface OffThreadHooks {
  /** The document's current version (undefined once closed). */
  currentVersion(): number | undefined;
  publish(version: number, diagnostics: LspDiagnostic[]): void;
}

/** Builds a request's parameters from offsets into the checked text (null: withheld). */
export type RequestBuilder<M extends Method> = (
  offsetOf: (offset: number) => number | null,
) => Requests[M] | null;

interface Held {
  readonly version: number;
  readonly text: string;
}

interface Slot {
  worker: CheckWorker;
  /** The tree the worker holds (answerable only while it is not busy). */
  held: Held | null;
  busy: (Held & { readonly publish: boolean }) | null;
  readonly answers: Map<number, (message: AnswerMessage | null) => void>;
  /** The last map from `held` to a current version. */
  map: { readonly from: number; readonly to: number; readonly map: VersionMap } | null;
}

interface Waiter {
  readonly version: number;
  readonly ready: (slot: Slot) => void;
  readonly fail: (error: ResponseError<void>) => void;
}

export class OffThreadDocument {
  private readonly slots: Slot[];
  private wanted: Held | null = null;
  private waiters: Waiter[] = [];
  private nextId = 1;
  private disposed = false;
  private crashedOnce: number | null = null;
  private abandoned = -1;

  constructor(
    private readonly uri: string,
    private readonly workers: WorkerFactory,
    private readonly hooks: OffThreadHooks,
    /** Sent with every check (the client's `portable` initialization option). */
    private readonly portable: ReferenceVersion | false = false,
  ) {
    this.slots = [this.slot(), this.slot()];
  }

  /** Check this version (debounced by the caller) and publish its diagnostics if still current then. */
  check(version: number, text: string): void {
    if (this.wanted === null || version > this.wanted.version) this.wanted = { version, text };
    this.pump();
  }

  /** A new version arrived: edits waiting for an older one can no longer be exact. */
  changed(version: number): void {
    for (const w of this.waiters.filter((w) => w.version < version)) {
      w.fail(new ResponseError(LSPErrorCodes.ContentModified, "the document changed"));
    }
    this.waiters = this.waiters.filter((w) => w.version >= version);
  }

  /** A read-only request, answered at once from the newest idle tree (null: no tree yet, or withheld). */
  async ask<M extends Method>(
    method: M,
    current: CurrentVersion,
    build: RequestBuilder<M>,
    token: CancellationToken,
  ): Promise<Results[M] | null> {
    const slot = this.server();
    if (slot === undefined || slot.held === null) return null;
    const held = slot.held;
    const map = this.mapOf(slot, held, current);
    const params = build((offset) => map.toChecked(offset));
    if (params === null) return null;
    const answer = await this.send(slot, held.version, { method, params }, token);
    if (answer === null) return null;
    return toProtocol(method, answer, { uri: this.uri, positions: current.positions, map });
  }

  /** An edit request: answered from the current version's own tree, waiting for its check if needed. */
  async exact<M extends Method>(
    method: M,
    current: CurrentVersion,
    build: RequestBuilder<M>,
    token: CancellationToken,
  ): Promise<Results[M] | null> {
    const params = build((offset) => offset);
    if (params === null) return null;
    const slot = await this.holderOf(current, token);
    const answer = await this.send(slot, current.version, { method, params }, token);
    if (answer === null) throw new ResponseError(LSPErrorCodes.ContentModified, "the document changed");
    return toProtocol(method, answer, { uri: this.uri, positions: current.positions, map: IDENTITY });
  }

  dispose(): void {
    this.disposed = true;
    for (const slot of this.slots) this.retire(slot);
    for (const w of this.waiters)
      w.fail(new ResponseError(LSPErrorCodes.ContentModified, "the document closed"));
    this.waiters = [];
  }

  /** Versions checked or being checked, by worker (tests). */
  state(): readonly { readonly held: number | null; readonly busy: number | null }[] {
    return this.slots.map((s) => ({ held: s.held?.version ?? null, busy: s.busy?.version ?? null }));
  }

  private slot(): Slot {
    const slot: Slot = { worker: this.workers(), held: null, busy: null, answers: new Map(), map: null };
    this.attach(slot);
    return slot;
  }

  private attach(slot: Slot): void {
    const worker = slot.worker;
    worker.onMessage((message: FromWorker) => {
      if (slot.worker !== worker || this.disposed) return;
      if (message.kind === "answer") {
        const resolve = slot.answers.get(message.id);
        slot.answers.delete(message.id);
        resolve?.(message);
      } else this.checked(slot, message.version, message.diagnostics);
    });
    worker.onExit(() => {
      if (slot.worker !== worker || this.disposed) return;
      // A crashed worker (e.g. out of memory) is replaced; its version is checked again if wanted,
      // but a version that crashed a worker twice is left alone until a newer one comes.
      const crashed = slot.busy?.version;
      if (crashed !== undefined) {
        if (this.crashedOnce === crashed) this.abandoned = crashed;
        this.crashedOnce = crashed;
      }
      this.retire(slot);
      slot.worker = this.workers();
      slot.held = null;
      slot.busy = null;
      slot.map = null;
      this.attach(slot);
      this.pump();
    });
  }

  private retire(slot: Slot): void {
    slot.worker.terminate();
    for (const resolve of slot.answers.values()) resolve(null);
    slot.answers.clear();
  }

  private checked(slot: Slot, version: number, diagnostics: LspDiagnostic[] | null): void {
    const done = slot.busy;
    slot.busy = null;
    if (done === null || done.version !== version) return;
    slot.held = { version: done.version, text: done.text };
    slot.map = null;
    // Never an outdated version: only the document's current one is published.
    if (done.publish && diagnostics !== null && this.hooks.currentVersion() === version) {
      this.hooks.publish(version, diagnostics);
    }
    const ready = this.waiters.filter((w) => w.version === version);
    this.waiters = this.waiters.filter((w) => w.version !== version);
    for (const w of ready) w.ready(slot);
    this.pump();
  }

  private pump(): void {
    if (this.disposed) return;
    const idle = this.slots.filter((s) => s.busy === null);
    const target = this.wanted;
    if (target !== null && target.version > this.newestVersion() && target.version > this.abandoned) {
      let slot: Slot | undefined;
      if (idle.length === 2) slot = older(idle[0] as Slot, idle[1] as Slot);
      else if (idle.length === 1 && idle[0]?.held === null) slot = idle[0];
      if (slot !== undefined) this.start(slot, target, true);
      return;
    }
    // Nothing to check: bring the worker holding the older tree (or none) up to the newest.
    if (idle.length === 2) {
      const [a, b] = idle as [Slot, Slot];
      const lagging = older(a, b);
      const ahead = lagging === a ? b : a;
      if (ahead.held !== null && (lagging.held?.version ?? -1) < ahead.held.version) {
        this.start(lagging, ahead.held, false);
      }
    }
  }

  private start(slot: Slot, version: Held, publish: boolean): void {
    slot.busy = { ...version, publish };
    slot.map = null;
    slot.worker.post({
      kind: "check",
      uri: this.uri,
      version: version.version,
      text: version.text,
      diagnostics: publish,
      ...(this.portable === false ? {} : { portable: this.portable }),
    });
  }

  private newestVersion(): number {
    let newest = -1;
    for (const s of this.slots) newest = Math.max(newest, s.held?.version ?? -1, s.busy?.version ?? -1);
    return newest;
  }

  /** The idle worker holding the newest tree. */
  private server(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots) {
      if (s.busy !== null || s.held === null) continue;
      if (best === undefined || (best.held?.version ?? -1) < s.held.version) best = s;
    }
    return best;
  }

  private mapOf(slot: Slot, held: Held, current: CurrentVersion): VersionMap {
    if (slot.map !== null && slot.map.from === held.version && slot.map.to === current.version)
      return slot.map.map;
    const map = versionMap(held.text, current.text);
    slot.map = { from: held.version, to: current.version, map };
    return map;
  }

  private holderOf(current: CurrentVersion, token: CancellationToken): Promise<Slot> {
    const now = this.slots.find((s) => s.busy === null && s.held?.version === current.version);
    if (now !== undefined) return Promise.resolve(now);
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = {
        version: current.version,
        ready: (slot) => {
          subscription.dispose();
          resolve(slot);
        },
        fail: (error) => {
          subscription.dispose();
          reject(error);
        },
      };
      const subscription = token.onCancellationRequested(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.fail(cancelled());
      });
      this.waiters.push(waiter);
      // Edits should not wait for the debounce either.
      this.check(current.version, current.text);
    });
  }

  private send<M extends Method>(
    slot: Slot,
    version: number,
    request: ServiceRequest<M>,
    token: CancellationToken,
  ): Promise<Answers[M] | null> {
    if (token.isCancellationRequested) return Promise.reject(cancelled());
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const subscription = token.onCancellationRequested(() => {
        slot.answers.delete(id);
        reject(cancelled());
      });
      slot.answers.set(id, (message) => {
        subscription.dispose();
        if (message?.failed !== undefined) {
          reject(new ResponseError(LSPErrorCodes.RequestFailed, message.failed));
        } else resolve((message?.answer ?? null) as Answers[M] | null);
      });
      slot.worker.post({ kind: "request", id, version, request });
    });
  }
}

/** Of two workers, the one holding the older tree (or none). */
function older(a: Slot, b: Slot): Slot {
  return (a.held?.version ?? -1) <= (b.held?.version ?? -1) ? a : b;
}

function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, "request cancelled");
}
