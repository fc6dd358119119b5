// Checker environments shared by the checker tests: contracts with nested records, enumerations,
// optional fields, lists of records and a recursive field, bound as the spec positions bind them.
import type { ExprEnvironment } from "../../checker/expr/check-expression";
import type { Path, PathRef } from "../../grammar/ast";
import { ANY, BOOL, FLOAT, INT, NONE, RecordType, STR, type Type } from "../../stdlib/types/type";
import { union } from "../../stdlib/types/union";

export const finding = new RecordType("Finding");
const review = new RecordType("Review");
const rec = (r: RecordType): Type => ({ k: "record", record: r });
const list = (elem: Type): Type => ({ k: "list", elem });

finding.fields.set("id", { type: INT, optional: false });
finding.fields.set("severity", { type: { k: "str", values: ["low", "medium", "high"] }, optional: false });
finding.fields.set("file", { type: union(STR, NONE), optional: true });
finding.fields.set("line", { type: INT, optional: false });

review.fields.set("summary", { type: STR, optional: false });
review.fields.set("score", { type: union(INT, FLOAT), optional: false });
review.fields.set("findings", { type: list(rec(finding)), optional: false });
review.fields.set("meta", { type: { k: "dict", key: STR, value: ANY }, optional: false });
review.fields.set("status", {
  type: union({ k: "str", values: ["complete", "failed"] }, NONE),
  optional: true,
});
review.fields.set("tags", { type: list(STR), optional: false });
review.fields.set("approved", { type: BOOL, optional: false });
review.fields.set("level", { type: { k: "int", values: [1, 2, 3] }, optional: false });
review.fields.set("parent", { type: union(rec(review), NONE), optional: true });
review.fields.set("files_changed", { type: list(STR), optional: false });

const ACCUMULATOR_REASON = "it is bound only in exit_criterion of a step that declares accumulate";
const ITEM_REASON = "item is bound only in accumulate_key";

/** `$.input.n: integer`, `$.input.name: string`, `$.steps.review.output` of contract Review. */
function pathType(ref: PathRef, _node: Path): Type {
  let t: Type;
  if (ref.scope === "input") {
    t = ref.name.name === "n" ? union(INT, NONE) : ref.name.name === "name" ? union(STR, NONE) : ANY;
  } else {
    t = ref.name.name === "review" ? union(rec(review), NONE) : ANY;
  }
  for (const seg of ref.fields) {
    const record =
      t.k === "union" ? t.members.find((m) => m.k === "record") : t.k === "record" ? t : undefined;
    if (record?.k !== "record") return ANY;
    t = union(record.record.fields.get(seg.name)?.type ?? ANY, NONE);
  }
  return t;
}

export const ensureEnv: ExprEnvironment = {
  kind: "ensure",
  names: new Map([["result", { k: "ns", of: rec(review) }]]),
  unavailable: new Map([
    ["item", ITEM_REASON],
    ["accumulator", ACCUMULATOR_REASON],
    ["accumulated_count", ACCUMULATOR_REASON],
    ["new_count", ACCUMULATOR_REASON],
    ["dry_streak", ACCUMULATOR_REASON],
  ]),
  pathType,
  owner: "Step 's'",
};

export const skipIfEnv: ExprEnvironment = {
  kind: "skip_if",
  names: new Map(),
  unavailable: new Map([
    ["result", "skip_if is evaluated before the step runs; read earlier outputs with $.steps.<id>.output"],
    ["item", ITEM_REASON],
  ]),
  pathType,
  owner: "Step 's'",
};

export const exitEnv: ExprEnvironment = {
  kind: "exit_criterion",
  names: new Map<string, Type>([
    ["result", { k: "ns", of: rec(review) }],
    ["accumulator", list(rec(finding))],
    ["accumulated_count", INT],
    ["new_count", union(INT, NONE)],
    ["dry_streak", INT],
  ]),
  unavailable: new Map([["item", ITEM_REASON]]),
  pathType,
  owner: "Step 's'",
};

export const accumulateEnv: ExprEnvironment = { ...ensureEnv, kind: "accumulate" };

export const accumulateKeyEnv: ExprEnvironment = {
  kind: "accumulate_key",
  names: new Map([["item", { k: "ns", of: rec(finding) }]]),
  unavailable: new Map([["result", "accumulate_key sees one extracted element as item"]]),
  pathType,
  owner: "Step 's'",
};

/** A function's ensure (EXPR-DUNDER message names the function). */
export const functionEnsureEnv: ExprEnvironment = { ...ensureEnv, owner: "Function 'review_fn'" };

/** A generic environment: no kind, no owner, `x: any`. */
export const genericEnv: ExprEnvironment = { names: new Map([["x", ANY]]) };
