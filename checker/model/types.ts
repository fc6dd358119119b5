// The spec model: a typed view of the loaded document after the structure phase (language.md
// docs/reference/language.md §9.3). Semantic rules, graph rules and the expression phase read the document only through it.
// A field is "valid" when it is present and passed every structural check (SCHEMA-* found nothing
// in it): later rules that need a value skip invalid fields, so nothing cascades.
import type { Version } from "../base/version";
import type { SpecSource } from "../source";
import type { MapEntry, MapNode, ScalarNode, SeqNode, SpecNode } from "../yaml/nodes";

/** A present, structurally valid field: its value and the entry that holds it. */
export interface Field<T> {
  readonly value: T;
  readonly entry: MapEntry;
}

/** Typed access to the fields of one mapping (a function, flow, step, contract field, …). */
export interface Fields {
  readonly node: MapNode;
  /** The entry of a key that is present, valid or not (`undefined` when absent). */
  entry(key: string): MapEntry | undefined;
  /** True when the key is present and its value passed the structure checks. */
  valid(key: string): boolean;
  /** A valid string field (empty strings included). */
  string(key: string): Field<string> | null;
  /** A valid field that is a string or null (`on_approve`, `on_revise`, `on_kill`). */
  nullableString(key: string): Field<string | null> | null;
  /** A valid integer field (an integral float such as `2.0` is given as the integer 2). */
  integer(key: string): Field<number> | null;
  /** A valid number field (ints and floats, not booleans). */
  number(key: string): Field<number> | null;
  boolean(key: string): Field<boolean> | null;
  map(key: string): Field<MapNode> | null;
  seq(key: string): Field<SeqNode> | null;
  /** A valid sequence of strings, as its scalar nodes (`ensure`, `depends_on`). */
  strings(key: string): Field<readonly ScalarNode[]> | null;
}

export interface FieldDefDecl extends Fields {
  /**
   * `type` when valid, in canonical form: for the shorthand `type: enum` with `values` the type
   * of the values (`string`, …); for `items: <type>` the type name. The entry is the one written.
   */
  readonly type: Field<string> | null;
  /** The `items` definition, when present as a mapping or as the shorthand `items: <type>`. */
  readonly items: FieldDefDecl | null;
  /** The reference's shorthand this definition was written in, or null (canonical form). */
  readonly shorthand: FieldShorthand | null;
}

/**
 * A field definition written in one of the reference's shorthands (accepted, SPEC-CONTRACT-SHORTHAND):
 * `type: enum` + `values` (`entry` is the `type` entry), or `items: <type>` (`entry` is the
 * `items` entry, whose value is the type name).
 */
export interface FieldShorthand {
  readonly kind: "enum" | "items";
  readonly entry: MapEntry;
  /** What the definition means in canonical form: `string` for an enum, `{type: <t>}` for items. */
  readonly canonical: string;
}

export interface ContractFieldDecl {
  readonly name: string;
  /** The entry in the contract mapping: its key is the `E` anchor. */
  readonly decl: MapEntry;
  /** Null when the definition is not a mapping (SCHEMA-TYPE was reported). */
  readonly def: FieldDefDecl | null;
}

export interface ContractDecl {
  readonly name: string;
  /** The entry in the parent mapping (`functions`, `flows`, `contracts`, a contract): its key is the `E` anchor. */
  readonly decl: MapEntry;
  /** Null when the contract is not a mapping. */
  readonly node: MapNode | null;
  readonly fields: readonly ContractFieldDecl[];
}

export type FunctionMode = "infer" | "compute" | "gate";

export interface FunctionDecl extends Fields {
  readonly name: string;
  /** The entry in the parent mapping (`functions`, `flows`, `contracts`, a contract): its key is the `E` anchor. */
  readonly decl: MapEntry;
  /** The valid `mode`, or null (missing or invalid). */
  readonly mode: FunctionMode | null;
}

import type { StepKind } from "../base/step-kinds";

export type { StepKind, TypedStepKind } from "../base/step-kinds";

export interface StepDecl extends Fields {
  readonly flow: FlowDecl;
  /** Position in the flow's `steps` sequence. */
  readonly index: number;
  /** The valid string id, or null (such a step takes no part in id-based rules). */
  readonly id: string | null;
  /**
   * The step kind, or null when it cannot be known: SPEC-STEP-MODE, an undefined function, a
   * function whose mode is invalid, or an invalid `type`. A 0.3 `type: decompose |
   * parallel_dispatch` decides the kind before function / intent / flow are looked at.
   */
  readonly kind: StepKind | null;
  /** The function of a function or gate step (null on decompose and parallel_dispatch steps). */
  readonly fn: FunctionDecl | null;
  /** The target flow of a sub-flow step, when it exists. */
  readonly target: FlowDecl | null;
}

export interface FlowDecl extends Fields {
  readonly name: string;
  /** The entry in the parent mapping (`functions`, `flows`, `contracts`, a contract): its key is the `E` anchor. */
  readonly decl: MapEntry;
  /** Every step item that is a mapping, in declaration order (non-mapping items are skipped). */
  readonly steps: readonly StepDecl[];
  /** The `steps` sequence node whenever `steps` is a sequence, even one with broken items (for anchors). */
  readonly stepsNode: SeqNode | null;
  /** The first step with each valid id (later duplicates are not in this map). */
  readonly stepById: ReadonlyMap<string, StepDecl>;
  /** Declared input names (keys of `input` when it is a mapping), in declaration order. */
  readonly inputNames: readonly string[];
}

export interface WorkflowDecl extends Fields {
  /** The `workflow` entry of the root mapping. */
  readonly decl: MapEntry;
}

export interface SpecModel {
  readonly source: SpecSource;
  readonly version: Version;
  readonly root: MapNode;
  /** Declaration order everywhere. */
  readonly contracts: readonly ContractDecl[];
  readonly functions: readonly FunctionDecl[];
  readonly flows: readonly FlowDecl[];
  readonly workflow: WorkflowDecl | null;
  readonly contractByName: ReadonlyMap<string, ContractDecl>;
  readonly functionByName: ReadonlyMap<string, FunctionDecl>;
  readonly flowByName: ReadonlyMap<string, FlowDecl>;
  /**
   * Every node that got a structural value diagnostic (SCHEMA-TYPE/ENUM/MINIMUM/NON-EMPTY/PATTERN),
   * and every mapping with a SCHEMA-KEY-NOT-STRING key. A field whose value contains such a node is
   * not `valid`.
   */
  readonly invalid: ReadonlySet<SpecNode>;
}
