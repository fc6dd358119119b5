// The server's JSON API (docs/ui.md): GETs of the flows list and a flow page, the gate POST.
// Every answer becomes a typed result: the value, or the error the server (or the network) gave.
import type { ApiError, FlowList, FlowPage, GateAnswerView, GateRequest } from "../api-types";

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

async function request<T>(path: string, init: RequestInit): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin", cache: "no-store", ...init });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, status: 0, code: "network", message: `the server cannot be reached (${message})` };
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

/** The CSRF token the server put in the page's `<meta name="csrf-token">`. */
export function csrfToken(): string {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta?.getAttribute("content") ?? "";
}

export function fetchFlows(): Promise<ApiResult<FlowList>> {
  return getJson<FlowList>("/api/flows");
}

export function fetchFlow(flowId: string): Promise<ApiResult<FlowPage>> {
  return getJson<FlowPage>(`/api/flows/${encodeURIComponent(flowId)}`);
}

export function postGate(flowId: string, body: GateRequest): Promise<ApiResult<GateAnswerView>> {
  return request<GateAnswerView>(`/api/flows/${encodeURIComponent(flowId)}/gate`, {
    method: "POST",
    headers: {
      Accept: "application/json",
      "Content-Type": "application/json",
      "X-CSRF-Token": csrfToken(),
    },
    body: JSON.stringify(body),
  });
}
