// The server's JSON API (docs/guides/ui.md): GETs of the inbox, a flow page and more of its steps
// and audit, the gate POST; each with the session's Authorization header (session.ts).
// Every answer becomes a typed result: the value, or the error the server (or the network) gave.
import type { ApiError, FlowPage, GateAnswerView, GateRequest, InboxView } from "../api-types";
import { authHeaders, forgetSession } from "./session";

export type ApiResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: number; readonly code: string; readonly message: string };

function isApiError(body: unknown): body is ApiError {
  if (typeof body !== "object" || body === null || !("error" in body)) return false;
  const error: unknown = body.error;
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string" &&
    "message" in error &&
    typeof error.message === "string"
  );
}

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  422: "unprocessable",
  500: "internal",
};

let onUnauthorized: () => void = () => undefined;

/** What the page does when the server refuses its session (restarted, expired). */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

async function request<T>(path: string, init: RequestInit): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      credentials: "omit",
      cache: "no-store",
      headers: { ...authHeaders(), ...(init.headers as Record<string, string> | undefined) },
    });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, status: 0, code: "network", message: `the server cannot be reached (${message})` };
  }
  if (response.status === 401) {
    forgetSession();
    onUnauthorized();
  }
  const text = await response.text().catch(() => "");
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  if (response.ok && body !== null && !isApiError(body)) return { ok: true, value: body as T };
  if (isApiError(body)) {
    return { ok: false, status: response.status, code: body.error.code, message: body.error.message };
  }
  return {
    ok: false,
    status: response.status,
    code: CODE_BY_STATUS[response.status] ?? "unexpected",
    message:
      text.trim() === "" ? `HTTP ${response.status} ${response.statusText}` : text.trim().slice(0, 500),
  };
}

function getJson<T>(path: string): Promise<ApiResult<T>> {
  return request<T>(path, { method: "GET", headers: { Accept: "application/json" } });
}

/** The home: `query` is the filters' query string and the lists' offsets (docs/guides/ui-inbox.md). */
export function fetchInbox(query: string): Promise<ApiResult<InboxView>> {
  return getJson<InboxView>(query === "" ? "/api/inbox" : `/api/inbox?${query}`);
}

/** How many steps and audit records a flow's page shows at a time (the server's default window). */
export const PAGE_SIZE = 100;

/** A flow's page with the windows of steps and audit records from these offsets (null: the server's choice). */
export function fetchFlow(
  flowId: string,
  stepsOffset: number | null = null,
  auditOffset: number | null = null,
): Promise<ApiResult<FlowPage>> {
  const query = new URLSearchParams();
  if (stepsOffset !== null) query.set("steps_offset", String(stepsOffset));
  if (auditOffset !== null) query.set("audit_offset", String(auditOffset));
  const search = query.toString() === "" ? "" : `?${query.toString()}`;
  return getJson<FlowPage>(`/api/flows/${encodeURIComponent(flowId)}${search}`);
}

export function postGate(flowId: string, body: GateRequest): Promise<ApiResult<GateAnswerView>> {
  return request<GateAnswerView>(`/api/flows/${encodeURIComponent(flowId)}/gate`, {
    method: "POST",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/json",
    },
    body: JSON.stringify(body),
  });
}
