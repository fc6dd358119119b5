// The in-memory shape of a generated spec, before it is written out as YAML text. Style choices
// (quoting, flow or block collections) are made when the model is built, so writing it out is a
// pure function and re-writing it after each growth step gives the same text.

export type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object";

export interface FieldDef {
  readonly name: string;
  /** A JSON type or the name of another contract of the spec. */
  readonly type: string;
  readonly values?: readonly string[];
  /** Element type of an array: a JSON type or a contract name. */
  readonly items?: string;
  readonly required: boolean;
  readonly description?: string;
  /** Written as a block mapping instead of `{type: …}`. */
  readonly block: boolean;
}

export interface Contract {
  readonly name: string;
  readonly fields: FieldDef[];
}

/** One value as written after `key:` — `head` on the key's line, `body` lines indented below. */
export interface Rendered {
  head: string;
  readonly body: readonly string[];
}

export interface Entry {
  readonly key: string;
  readonly value: Rendered;
  /** A comment written at the end of the key's line. */
  readonly comment?: string;
}

export interface FunctionModel {
  readonly name: string;
  readonly gate: boolean;
  /** The output contract (non-gate functions). */
  readonly output: string | null;
  readonly entries: Entry[];
}

export interface InputDecl {
  readonly name: string;
  readonly type: JsonType;
}

export type StepKind = "function" | "gate" | "inline" | "flow";

export interface StepModel {
  readonly id: string;
  readonly kind: StepKind;
  /** The contract that types `$.steps.<id>.output`; null for gates, untyped inline and sub-flow steps. */
  readonly resultContract: string | null;
  readonly entries: Entry[];
  /** A comment line written above the step. */
  readonly comment?: string;
  /** The gate's on_approve value, pointed at the next step when one is added after it. */
  readonly onApprove?: Rendered;
}

export interface FlowModel {
  readonly name: string;
  readonly inputs: InputDecl[];
  /** Sub-flow targets have no sub-flow steps of their own (so no call chain can recurse). */
  readonly leaf: boolean;
  readonly header: Entry[];
  readonly steps: StepModel[];
}

interface WorkflowModel {
  readonly name: string;
  readonly description: string;
  readonly entry: FlowModel;
  /** Per input: written with `required`/`default` metadata. */
  readonly metadata: boolean;
}

interface SpecStyle {
  /** `steps:` items indented below the key (`  - id:`) rather than level with it. */
  readonly indentedSequences: boolean;
  /** Blank lines between functions, flows and steps. */
  readonly airy: boolean;
  readonly versionQuote: "'" | '"';
}

export interface SpecModel {
  readonly version: "0.1" | "0.2";
  readonly style: SpecStyle;
  readonly headerComments: string[];
  readonly contracts: Map<string, Contract>;
  readonly functions: FunctionModel[];
  readonly flows: FlowModel[];
  workflow: WorkflowModel | null;
}
