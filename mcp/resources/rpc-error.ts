// JSON-RPC error answers of the resource and prompt handlers. The SDK sends an error's `code` and
// `data` as they are; an McpError would prefix its message with "MCP error <code>: ", and the
// client adds that prefix once more.

/** The protocol's code for a resource that does not exist (its specification, "Error Handling"). */
const RESOURCE_NOT_FOUND = -32002;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

export type RpcError = Error & { readonly code: number; readonly data?: unknown };

export function rpcError(code: number, message: string, data?: unknown): RpcError {
  return Object.assign(new Error(message), data === undefined ? { code } : { code, data });
}

/** The longest URI an error repeats in its `data` (a client's megabyte URI is not sent back). */
const MAX_ECHOED_URI = 2048;

export function resourceNotFound(uri: string): RpcError {
  return rpcError(
    RESOURCE_NOT_FOUND,
    "Resource not found",
    uri.length <= MAX_ECHOED_URI ? { uri } : undefined,
  );
}
