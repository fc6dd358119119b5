// The server's resources (docs/guides/mcp-server-resources.md): each stored flow as
// `stratum://flows/<id>` (its state and audit, flow-body.ts), listed newest first (flow-list.ts),
// subscribable (subscriptions.ts); and the spec format's JSON Schema, the text `stratumc schema`
// prints. Read-only: nothing here changes a flow.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type ReadResourceResult,
  type Resource,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { StoreUnavailableError, StoreUnusableError } from "../../interpreter/index";
import { flowResourceText } from "./flow-body";
import { listFlowResources } from "./flow-list";
import { type FlowSource, lookUpFlow } from "./flow-source";
import { FLOW_URI_TEMPLATE, flowIdOf, flowUri } from "./flow-uri";
import { INTERNAL_ERROR, resourceNotFound, rpcError } from "./rpc-error";
import { FlowSubscriptions } from "./subscriptions";

const SCHEMA_URI = "stratum://schema/stratum.schema.json";

export interface ResourceOptions {
  /** The flows of the server's store; null: no flow resources. */
  readonly flows: FlowSource | null;
  /** The spec format's JSON Schema as text (what `stratumc schema` prints). */
  readonly specSchema: string;
}

/** The capability the server declares with these resources. */
export const RESOURCES_CAPABILITY = { subscribe: true } as const;

const SCHEMA_RESOURCE: Resource = {
  uri: SCHEMA_URI,
  name: "stratum.schema.json",
  title: "Stratum spec format (JSON Schema)",
  description: "The JSON Schema (draft 2020-12) of .stratum.yaml specs, as `stratumc schema` prints it",
  mimeType: "application/schema+json",
};

/** Registers the handlers; the subscriptions returned are told of each tool call and closed with the server. */
export function registerResources(server: Server, options: ResourceOptions): FlowSubscriptions | null {
  const { flows, specSchema } = options;
  const subscriptions =
    flows === null
      ? null
      : new FlowSubscriptions(
          flows.store,
          (flowId) => server.sendResourceUpdated({ uri: flowUri(flowId) }),
          () => server.transport !== undefined,
        );
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    if (flows === null) return { resources: cursor === undefined ? [SCHEMA_RESOURCE] : [] };
    const page = await storeCall(() => listFlowResources(flows, cursor));
    return {
      ...page,
      resources: cursor === undefined ? [SCHEMA_RESOURCE, ...page.resources] : page.resources,
    };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates:
      flows === null
        ? []
        : [
            {
              uriTemplate: FLOW_URI_TEMPLATE,
              name: "flow",
              title: "Stratum flow",
              description:
                "A flow's state (as `stratumc query flow` shows it) and its audit (as stratum_audit answers)",
              mimeType: "application/json",
            },
          ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    if (uri === SCHEMA_URI) {
      return { contents: [{ uri, mimeType: "application/schema+json", text: specSchema }] };
    }
    const flowId = flowIdOf(uri);
    if (flows === null || flowId === null) throw resourceNotFound(uri);
    const found = await storeCall(() => lookUpFlow(flows, flowId));
    if (found === null) throw resourceNotFound(uri);
    const text =
      found.kind === "corrupt"
        ? JSON.stringify({ flow_id: flowId, status: "corrupt", problem: found.problem }, null, 2)
        : flowResourceText(found.loaded.run, flows.clock);
    return { contents: [{ uri, mimeType: "application/json", text }] };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri === SCHEMA_URI) return {}; // never changes while the server runs
    const flowId = flowIdOf(uri);
    if (subscriptions === null || flowId === null) throw resourceNotFound(uri);
    if (!(await storeCall(() => subscriptions.subscribe(flowId)))) throw resourceNotFound(uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    const flowId = flowIdOf(request.params.uri);
    if (flowId !== null) subscriptions?.unsubscribe(flowId);
    return {};
  });
  return subscriptions;
}

/**
 * A store that cannot answer gives its own message (it names the store without credentials);
 * anything else is an internal error whose details stay out of the answer.
 */
async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "number") throw e;
    if (e instanceof StoreUnavailableError || e instanceof StoreUnusableError) {
      throw rpcError(INTERNAL_ERROR, e.message);
    }
    throw rpcError(INTERNAL_ERROR, "Internal error");
  }
}
