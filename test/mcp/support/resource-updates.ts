// The resources/updated notifications a client hears, for the subscription tests.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

export interface ResourceUpdates {
  /** Every URI heard so far, in order. */
  readonly uris: string[];
  /** The next URI heard; rejects after `timeoutMs` without one. */
  next(timeoutMs: number): Promise<string>;
}

/** The updates `server.client` hears (a stdio server, or `{ client }` of an HTTP session). */
export function resourceUpdates(server: { readonly client: Client }): ResourceUpdates {
  const uris: string[] = [];
  const waiting: ((uri: string) => void)[] = [];
  server.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    uris.push(n.params.uri);
    waiting.shift()?.(n.params.uri);
  });
  return {
    uris,
    next: (timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no resources/updated notification")), timeoutMs);
        waiting.push((uri) => {
          clearTimeout(timer);
          resolve(uri);
        });
      }),
  };
}

/** The response object of a tool call's text content. */
export function toolText(result: unknown): Record<string, unknown> {
  const content = (result as { content: { type: string; text: string }[] }).content;
  return JSON.parse(content[0]?.text ?? "") as Record<string, unknown>;
}
