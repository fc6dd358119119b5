// The inbox's filters live in the page's address, after the home route: `#/?status=…&flow=…&q=…&outcome=…`.
// A reload keeps them, a copied link shares them, and the back button returns to the filters
// before. Pure: the view reads them from the hash and writes them back (inbox-view.ts).
import type { GateOutcome, StatusFilter } from "../api-types";

export interface InboxFilters {
  readonly status: StatusFilter;
  /** A flow name; "" for every flow. */
  readonly flow: string;
  readonly q: string;
  /** "" for every outcome. */
  readonly outcome: GateOutcome | "";
}

export const NO_FILTERS: InboxFilters = { status: "all", flow: "", q: "", outcome: "" };

export const STATUS_FILTERS: readonly (readonly [StatusFilter, string])[] = [
  ["all", "All"],
  ["in_progress", "In progress"],
  ["awaiting_gate", "Awaiting gate"],
  ["finished", "Finished"],
];

export const OUTCOME_FILTERS: readonly (readonly [GateOutcome | "", string])[] = [
  ["", "Any"],
  ["approve", "Approved"],
  ["revise", "Revised"],
  ["kill", "Killed"],
];

/** The longest search text the server accepts. */
export const MAX_SEARCH = 200;

function isStatus(value: string): value is StatusFilter {
  return STATUS_FILTERS.some(([v]) => v === value);
}

function isOutcome(value: string): value is GateOutcome | "" {
  return OUTCOME_FILTERS.some(([v]) => v === value);
}

/** The filters of a query string (without its `?`); what is not understood is left at its default. */
export function parseFilters(search: string): InboxFilters {
  const params = new URLSearchParams(search);
  const status = params.get("status") ?? "";
  const outcome = params.get("outcome") ?? "";
  return {
    status: isStatus(status) ? status : "all",
    flow: params.get("flow") ?? "",
    q: (params.get("q") ?? "").slice(0, MAX_SEARCH),
    outcome: isOutcome(outcome) ? outcome : "",
  };
}

/** The query string of the filters (defaults left out), in a fixed order. */
export function filtersQuery(filters: InboxFilters): string {
  const params = new URLSearchParams();
  if (filters.status !== "all") params.set("status", filters.status);
  if (filters.flow !== "") params.set("flow", filters.flow);
  if (filters.q !== "") params.set("q", filters.q);
  if (filters.outcome !== "") params.set("outcome", filters.outcome);
  return params.toString();
}

/** The home's hash with these filters: `#/` without any. */
export function inboxHash(filters: InboxFilters): string {
  const query = filtersQuery(filters);
  return query === "" ? "#/" : `#/?${query}`;
}
