// The dependency graph of one flow (docs/reference/language.md §9.5.4, docs/reference/runtime.md §2).
import type { StepDecl } from "../model/types";
import type { MapEntry, ScalarNode } from "../yaml/nodes";

/** One dependency edge `from → to`: `from` depends on `to`. */
export interface DependencyEdge {
  readonly from: StepDecl;
  readonly to: StepDecl;
  /**
   * Where the edge is written: a `depends_on` item (`entry` = the step's `depends_on` entry, `node`
   * its item `index`) or an `inputs` value (`entry` = that input's own entry in the `inputs`
   * mapping, whose key is `name` and whose value is `node`) or a parallel_dispatch step's `source`.
   */
  readonly source:
    | {
        readonly kind: "depends_on";
        readonly entry: MapEntry;
        readonly index: number;
        readonly node: ScalarNode;
      }
    | { readonly kind: "input"; readonly entry: MapEntry; readonly name: string; readonly node: ScalarNode }
    /** The `source` of a parallel_dispatch step (`entry` is the `source` entry of the step). */
    | { readonly kind: "source"; readonly entry: MapEntry; readonly node: ScalarNode };
}

export interface FlowGraph {
  /** Edges between steps with valid ids that exist in the flow, in declaration order of `from`. */
  readonly edges: readonly DependencyEdge[];
  /** True when some strongly connected component contains a cycle (a self-edge counts). */
  readonly hasCycle: boolean;
  /** Stable topological order (Kahn, ties by declaration index); null when there is a cycle. */
  readonly order: readonly StepDecl[] | null;
  /** Ids of the steps `step` depends on, directly or transitively (the step itself excluded unless on a cycle). */
  transitiveDependencies(step: StepDecl): ReadonlySet<string>;
}
