// The flows `stratumc ui` shows, read from the flow store through the same loading as `stratumc
// query` (loadFlow: decode, restore against the flow's own spec). The list keeps each flow's row
// with the change token it was built from and rebuilds only the rows whose token moved, so a page
// that refreshes on every change costs two stat calls per unchanged flow.
import { FlowCorruptError, loadFlow } from "../../interpreter/index";
import type { FlowHost } from "../flow-host";
import type { FlowList, FlowListItem, FlowPage } from "./api-types";
import { corruptListItem, flowListItem, flowPage, sortFlowList } from "./views";

export type PageResult =
  | { readonly kind: "ok"; readonly page: FlowPage }
  | { readonly kind: "not_found" }
  | { readonly kind: "corrupt"; readonly problem: string };

export class FlowSource {
  private readonly rows = new Map<string, { readonly token: string; readonly item: FlowListItem }>();

  constructor(private readonly host: FlowHost) {}

  get home(): string {
    return this.host.where;
  }

  /** Every stored flow that restores or is corrupt (a flow whose spec no longer restores is left out, as `query`). */
  async list(): Promise<FlowList> {
    const infos = await this.host.store.list();
    const items: FlowListItem[] = [];
    const seen = new Set<string>();
    for (const info of infos) {
      seen.add(info.flowId);
      const token = info.token ?? (await this.host.store.token(info.flowId));
      if (token === null) continue; // removed since the listing
      const cached = this.rows.get(info.flowId);
      if (cached !== undefined && cached.token === token) {
        items.push({ ...cached.item, updated_ms: info.modifiedMs });
        continue;
      }
      const item = await this.row(info.flowId, info.modifiedMs);
      if (item === null) continue;
      this.rows.set(info.flowId, { token: item.token, item: item.item });
      items.push(item.item);
    }
    for (const id of this.rows.keys()) if (!seen.has(id)) this.rows.delete(id);
    return { home: this.host.where, flows: sortFlowList(items) };
  }

  /** One flow's page. */
  async page(flowId: string): Promise<PageResult> {
    let loaded: Awaited<ReturnType<typeof loadFlow>>;
    try {
      loaded = await loadFlow(this.host.store, flowId, (state) => this.host.restore(state));
    } catch (e) {
      if (e instanceof FlowCorruptError) return { kind: "corrupt", problem: e.message };
      throw e;
    }
    if (loaded === null) return { kind: "not_found" };
    return { kind: "ok", page: flowPage(loaded.run, loaded.modifiedMs) };
  }

  /** What changes whenever any flow is committed, created or removed. */
  async signature(): Promise<string> {
    const infos = await this.host.store.list();
    return infos.map((f) => `${f.flowId}@${f.token ?? f.modifiedMs}`).join("|");
  }

  private async row(
    flowId: string,
    modifiedMs: number,
  ): Promise<{ readonly token: string; readonly item: FlowListItem } | null> {
    try {
      const loaded = await loadFlow(this.host.store, flowId, (state) => this.host.restore(state));
      return loaded === null ? null : { token: loaded.token, item: flowListItem(loaded.run, modifiedMs) };
    } catch (e) {
      if (!(e instanceof FlowCorruptError)) throw e;
      const token = (await this.host.store.token(flowId)) ?? "";
      return { token, item: corruptListItem(flowId, `${e.file}: ${e.problem}`, modifiedMs) };
    }
  }
}
