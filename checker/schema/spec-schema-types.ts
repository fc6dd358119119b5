// The vocabulary of the declarative spec format (spec-schema.ts): value kinds, keys, shapes.
import type { Version } from "../base/version";

/** The value kinds a key may require. */
export type ValueSpec =
  /** The root `version` (checked first, by the version lookup of docs/reference/language.md §1.2). */
  | { readonly kind: "version" }
  | {
      readonly kind: "string";
      readonly nonEmpty?: boolean;
      /** An ECMAScript source with Python `re.search` semantics (see walk.ts). */
      readonly pattern?: string;
    }
  | { readonly kind: "nullableString" }
  /** An integer (an integral float such as `2.0` counts) that is at least `minimum` (and at most `maximum`). */
  | { readonly kind: "integer"; readonly minimum: number; readonly maximum?: number }
  /** An integer (integral floats count) at least `minimum`, or null (0.3 `task_timeout`). */
  | { readonly kind: "nullableInteger"; readonly minimum: number }
  /**
   * One of `values` or an integer at least `minimum` (0.3 `require`, a JSON Schema `oneOf`): a
   * string outside the list is SCHEMA-ENUM, a small integer SCHEMA-MINIMUM, anything else SCHEMA-TYPE
   * ("is not valid under any of the given schemas").
   */
  | { readonly kind: "enumOrInteger"; readonly values: readonly string[]; readonly minimum: number }
  /** An int or float, not a boolean, at least `minimum`. */
  | { readonly kind: "number"; readonly minimum: number }
  | { readonly kind: "boolean" }
  /** A string out of a fixed list (the list may depend on the version). */
  | { readonly kind: "enum"; readonly values: VersionedList }
  /** Anything (its mapping keys must still be strings). */
  | { readonly kind: "any" }
  /** A mapping with free-form content (`input`, `output_schema`). */
  | { readonly kind: "freeMapping" }
  /**
   * A mapping of one of the shapes below. `orTypeName`: a string is accepted too, as the
   * reference's shorthand `items: <type>` for `items: {type: <type>}` (model/build.ts); the
   * editor JSON Schema does not show it (it describes the canonical form).
   */
  | { readonly kind: "shape"; readonly shape: ShapeName; readonly orTypeName?: true }
  /** A mapping from arbitrary names to values of one kind (`functions`, step `inputs`, …). */
  | { readonly kind: "mapOf"; readonly value: ValueSpec; readonly valueTitle: string }
  /** A sequence whose items all have one kind. */
  | { readonly kind: "seqOf"; readonly item: ValueSpec; readonly nonEmpty?: boolean }
  /**
   * A count (an integer, integral floats count, at least `minimum`) or a non-empty sequence of
   * `item`s (a race's `candidates`: N copies, or one entry per member).
   */
  | { readonly kind: "countOrSeqOf"; readonly minimum: number; readonly item: ValueSpec }
  /**
   * A string, or a list of `item` (a JSON Schema `oneOf`, 0.3 `pre_merge_verify`): a list with a
   * bad item fails both branches and is reported at the key, as the reference's `oneOf` is.
   */
  | { readonly kind: "stringOrSeqOf"; readonly item: ValueSpec };

/** A list that may differ between versions. */
export type VersionedList = readonly string[] | { readonly [V in Version]: readonly string[] };

export interface KeySpec {
  readonly name: string;
  readonly value: ValueSpec;
  /** Set for keys that exist only from that version on. */
  readonly since?: Version;
  /** One sentence from the spec (JSON Schema `description`). */
  readonly description: string;
  /**
   * What applies when the key is absent (Markdown, for docs/reference/format.md); set on every key that is
   * optional in some version, absent on keys that are always required.
   */
  readonly default?: string;
  /** The key with a typical value, as YAML lines inside its mapping (structurally valid). */
  readonly example: string;
}

/**
 * A key that is required only when another key has one of some values (0.2 infer/compute
 * functions require `output`).
 */
export interface ConditionalRequired {
  readonly key: string;
  readonly versions: readonly Version[];
  readonly when: { readonly key: string; readonly in: readonly string[] };
}

export type ShapeName =
  | "root"
  | "fieldDef"
  | "function"
  | "budget"
  | "flow"
  | "step"
  | "workflow"
  | "workflowInput"
  | "member"
  | "judge"
  | "judgePredicate"
  | "judgeBudget"
  | "synthesis"
  | "stage"
  | "fanout"
  | "property"
  | "leadsTo";

export interface ShapeSpec {
  readonly name: ShapeName;
  /** The stable anchor of the shape's section of docs/reference/format.md (its keys: `<anchor>.<key>`). */
  readonly anchor: string;
  readonly title: string;
  readonly description: string;
  /** Catalogue order (the order of the spec's tables). */
  readonly keys: readonly KeySpec[];
  readonly required: VersionedList;
  readonly requiredIf?: readonly ConditionalRequired[];
  /** `error`: any other key is SCHEMA-UNKNOWN-KEY; `any`: other keys are allowed with any value. */
  readonly otherKeys: "error" | "any";
}
