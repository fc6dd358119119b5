// The flows `stratumc ui` shows, read from the flow store through the same loading as `stratumc
// query` (loadFlow: decode, restore against the flow's own spec). The list keeps each flow's row
// with the change token it was built from and rebuilds only the rows whose token moved, so a page
// that refreshes on every change costs two stat calls per unchanged flow. A flow's page keeps the
// flow's model (views.ts) the same way, so a 10,000-step flow is decoded once per commit, not once
// per page of steps the page asks for. A flow the list sees come to a gate is kept as a model
// from the list's own read: the notification about that gate links to its page. A fresh reader
// builds the unchecked first page of the store's most recently changed long flow before anyone asks
// (prefetchNewest): the flow a person starting `stratumc ui` comes to look at, most often.

import type { NodeHost } from "../host/index";
import {
  FlowCorruptError,
  type FlowRun,
  type FlowStore,
  loadFlow,
  type StoredFlow,
  type StoredFlowInfo,
} from "../interpreter/index";
import type { AuditRecord, FlowList, FlowPage, InboxView, ItemsPage, StepView } from "./api-types";
import { firstPage } from "./first-page";
import { corruptInboxRow, type InboxRow, inboxRow } from "./inbox-rows";
import { type InboxQuery, inboxView } from "./inbox-view";
import {
  clampLimit,
  corruptListItem,
  type FlowModel,
  flowModel,
  flowPage,
  PAGE_SIZE,
  type PageWindow,
  sortFlowList,
  stepSlice,
} from "./views";

export type Loaded<T> =
  | { readonly kind: "ok"; readonly value: T }
  | { readonly kind: "not_found" }
  | { readonly kind: "corrupt"; readonly problem: string };

/** How many flows' models are kept: the few a person has open. */
const MODELS_KEPT = 4;

export class FlowSource {
  private readonly rows = new Map<string, { readonly token: string; readonly row: InboxRow }>();
  /** Most recently used last; a pending load is shared by the requests that wait for it. */
  private readonly models = new Map<
    string,
    { readonly token: string; readonly model: Promise<Loaded<FlowModel>> }
  >();
  /** The first page prefetchNewest built, until that flow's page is asked for (then used once, or dropped). */
  private prefetched: { readonly flowId: string; readonly token: string; readonly page: FlowPage } | null =
    null;

  constructor(private readonly host: NodeHost) {}

  /**
   * Builds the unchecked first page (first-page.ts) of the most recently changed flow when it is a
   * long one, and keeps it for that flow's first ask, answered from it while the flow's change token
   * holds; nothing else is kept (the checked read starts when the page is asked, as without it).
   * True when a page was built, which also ran the first answer's code (the reader worker's warm-up).
   */
  async prefetchNewest(): Promise<boolean> {
    let newest: StoredFlowInfo | undefined;
    for (const info of await this.host.store.list())
      if (newest === undefined || info.modifiedMs > newest.modifiedMs) newest = info;
    if (newest === undefined) return false;
    const flowId = newest.flowId;
    const stored = await this.host.store.read(flowId);
    // Asked for meanwhile: that request's own reading stands.
    if (stored === null || this.models.has(flowId)) return false;
    const page = firstPage(flowId, stored, {});
    if (page === null) return false;
    this.prefetched = { flowId, token: stored.token, page };
    return true;
  }

  get home(): string {
    return this.host.where;
  }

  /** Every stored flow that restores or is corrupt (a flow whose spec no longer restores is left out, as `query`). */
  async list(): Promise<FlowList> {
    const rows = await this.inboxRows();
    return { home: this.host.where, flows: sortFlowList(rows.map((r) => r.item)) };
  }

  /** The page's home: gates waiting, decisions and flows, filtered and cut to one window each. */
  async inbox(query: InboxQuery): Promise<InboxView> {
    return inboxView(await this.inboxRows(), query, this.host.where);
  }

  /** Every stored flow's row, rebuilt only for the flows whose change token moved. */
  private async inboxRows(): Promise<InboxRow[]> {
    const infos = await this.host.store.list();
    const rows: InboxRow[] = [];
    const seen = new Set<string>();
    for (const info of infos) {
      seen.add(info.flowId);
      const token = info.token ?? (await this.host.store.token(info.flowId));
      if (token === null) continue; // removed since the listing
      const cached = this.rows.get(info.flowId);
      if (cached !== undefined && cached.token === token) {
        rows.push(withUpdated(cached.row, info.modifiedMs));
        continue;
      }
      // A flow open on a page was just loaded for it: its row comes from that load, not a second one.
      const kept = this.models.get(info.flowId);
      const shown = kept?.token === token ? await kept.model : null;
      if (shown?.kind === "ok") {
        const row = inboxRow(shown.value.run, info.modifiedMs);
        this.rows.set(info.flowId, { token, row });
        rows.push(row);
        continue;
      }
      const row = await this.row(info.flowId, info.modifiedMs);
      if (row === null) continue;
      // A flow that came to a gate while the server watched is the one a notification links to:
      // its page is answered from this read (the first reading only learns what already waits).
      if (cached !== undefined && row.run !== null && row.row.item.status === "awaiting_gate")
        this.keep(
          info.flowId,
          row.token,
          Promise.resolve({ kind: "ok", value: flowModel(row.run, info.modifiedMs) }),
        );
      this.rows.set(info.flowId, { token: row.token, row: row.row });
      rows.push(row.row);
    }
    for (const id of this.rows.keys()) if (!seen.has(id)) this.rows.delete(id);
    return rows;
  }

  /**
   * One flow's page with a window of its steps and audit records. A long flow not read yet is
   * first answered unchecked (first-page.ts), its model loaded right after this answer is sent.
   */
  async page(flowId: string, window: PageWindow): Promise<Loaded<FlowPage>> {
    const first = await this.firstPage(flowId, window);
    if (first !== null) return { kind: "ok", value: first };
    const loaded = await this.model(flowId);
    return loaded.kind === "ok"
      ? { kind: "ok", value: flowPage(loaded.value, loaded.value.item.updated_ms, window) }
      : loaded;
  }

  /** Steps `offset` … `offset + limit` of a flow. */
  async steps(flowId: string, offset: number, limit: number): Promise<Loaded<ItemsPage<StepView>>> {
    const loaded = await this.model(flowId);
    if (loaded.kind !== "ok") return loaded;
    const model = loaded.value;
    return {
      kind: "ok",
      value: {
        revision: model.run.state.revision,
        total: model.run.flow.steps.length,
        offset,
        items: stepSlice(model, offset, limit),
      },
    };
  }

  /** Audit records `offset` … `offset + limit` of a flow, oldest first. */
  async audit(flowId: string, offset: number, limit: number): Promise<Loaded<ItemsPage<AuditRecord>>> {
    const loaded = await this.model(flowId);
    if (loaded.kind !== "ok") return loaded;
    const model = loaded.value;
    return {
      kind: "ok",
      value: {
        revision: model.run.state.revision,
        total: model.audit.length,
        offset,
        items: model.audit.slice(offset, offset + clampLimit(limit)),
      },
    };
  }

  /**
   * For a flow with no model for its change token: its model's load kept, from one read of the
   * flow; when that flow is long, its unchecked page (first-page.ts), the load then kept to start
   * after this turn, so that this answer goes out first. Null otherwise.
   */
  private async firstPage(flowId: string, window: PageWindow): Promise<FlowPage | null> {
    const token = await this.host.store.token(flowId);
    if (token === null || this.models.get(flowId)?.token === token) return null;
    const ready = this.prefetched?.flowId === flowId ? this.prefetched : null;
    if (ready !== null) {
      this.prefetched = null;
      if (ready.token === token && isFirstWindow(window)) {
        // The model reads the flow again: the prefetch keeps the page only, not the flow's text.
        this.keep(
          flowId,
          token,
          new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.loadModel(flowId)),
        );
        return ready.page;
      }
    }
    const stored = await this.host.store.read(flowId);
    if (stored === null || stored.token !== token || this.models.get(flowId)?.token === token) return null;
    const page = firstPage(flowId, stored, window);
    this.keep(
      flowId,
      token,
      page === null
        ? this.loadModel(flowId, stored)
        : new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.loadModel(flowId, stored)),
    );
    return page;
  }

  /** The flow's model as stored now: the kept one while the flow's change token holds. */
  private async model(flowId: string): Promise<Loaded<FlowModel>> {
    const token = await this.host.store.token(flowId);
    if (token === null) return { kind: "not_found" };
    const kept = this.models.get(flowId);
    this.models.delete(flowId);
    if (kept !== undefined && kept.token === token) {
      this.models.set(flowId, kept);
      return kept.model;
    }
    const model = this.loadModel(flowId);
    this.keep(flowId, token, model);
    return model;
  }

  /** Keeps `model` as the flow's, most recently used, dropping the least recently used beyond MODELS_KEPT. */
  private keep(flowId: string, token: string, model: Promise<Loaded<FlowModel>>): void {
    // A model answers this flow's pages from now on: a prefetched first page is never asked for.
    if (this.prefetched?.flowId === flowId) this.prefetched = null;
    this.models.delete(flowId);
    this.models.set(flowId, { token, model });
    for (const id of this.models.keys()) {
      if (this.models.size <= MODELS_KEPT) break;
      this.models.delete(id);
    }
    // A failed load (a store that is down) is not kept: the next request tries again.
    model.catch(() => {
      if (this.models.get(flowId)?.model === model) this.models.delete(flowId);
    });
  }

  /** The flow's model; from `read` when given (the text the first page was answered from, not read twice). */
  private async loadModel(flowId: string, read?: StoredFlow): Promise<Loaded<FlowModel>> {
    const store = this.host.store;
    const from: FlowStore =
      read === undefined
        ? store
        : Object.assign(Object.create(store) as FlowStore, { read: async () => read });
    let loaded: Awaited<ReturnType<typeof loadFlow>>;
    try {
      loaded = await loadFlow(from, flowId, (state) => this.host.restore(state));
    } catch (e) {
      if (e instanceof FlowCorruptError) return { kind: "corrupt", problem: e.message };
      throw e;
    }
    if (loaded === null) return { kind: "not_found" };
    return { kind: "ok", value: flowModel(loaded.run, loaded.modifiedMs) };
  }

  /** What changes whenever any flow is committed, created or removed. */
  async signature(): Promise<string> {
    const infos = await this.host.store.list();
    return infos.map((f) => `${f.flowId}@${f.token ?? f.modifiedMs}`).join("|");
  }

  private async row(
    flowId: string,
    modifiedMs: number,
  ): Promise<{ readonly token: string; readonly row: InboxRow; readonly run: FlowRun | null } | null> {
    try {
      const loaded = await loadFlow(this.host.store, flowId, (state) => this.host.restore(state));
      return loaded === null
        ? null
        : { token: loaded.token, row: inboxRow(loaded.run, modifiedMs), run: loaded.run };
    } catch (e) {
      if (!(e instanceof FlowCorruptError)) throw e;
      const token = (await this.host.store.token(flowId)) ?? "";
      return {
        token,
        row: corruptInboxRow(corruptListItem(flowId, `${e.file}: ${e.problem}`, modifiedMs)),
        run: null,
      };
    }
  }
}

/** Whether `window` is the one a flow's page asks for first (prefetchNewest builds that one). */
function isFirstWindow(window: PageWindow): boolean {
  return (
    window.stepsOffset === undefined &&
    window.auditOffset === undefined &&
    clampLimit(window.limit ?? PAGE_SIZE) === PAGE_SIZE
  );
}

/** A kept row with the flow's modification time as listed now. */
function withUpdated(row: InboxRow, modifiedMs: number): InboxRow {
  return row.item.updated_ms === modifiedMs ? row : { ...row, item: { ...row.item, updated_ms: modifiedMs } };
}
