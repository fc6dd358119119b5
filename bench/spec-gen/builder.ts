// Builds a spec model piece by piece: contracts and functions are created when a step needs them,
// so a spec grows like a real one (a new step brings its function and output contract along).
import { ensureList } from "./expressions";
import type {
  Contract,
  Entry,
  FieldDef,
  FlowModel,
  FunctionModel,
  InputDecl,
  JsonType,
  SpecModel,
} from "./model";
import { freshName, uniqueName } from "./names";
import type { Rng } from "./rng";
import { blockScalar, doubleQuoted, flowScalar, inline, prose } from "./scalars";
import {
  COMMENTS,
  CONTRACT_NAMES,
  ENUMS,
  FIELD_NAMES,
  FLAG_INPUTS,
  FLOW_NAMES,
  INPUT_NAMES,
  MODELS,
  NOUNS,
  PHRASES,
  VERBS,
} from "./words";

type SimpleType = keyof typeof FIELD_NAMES;

export class SpecBuilder {
  readonly model: SpecModel;
  private readonly contractNames = new Set<string>();
  private readonly functionNames = new Set<string>();
  private readonly flowNames = new Set<string>();
  private gateFunction: FunctionModel | null = null;

  constructor(
    readonly rng: Rng,
    version: "0.1" | "0.2",
  ) {
    this.model = {
      version,
      style: {
        indentedSequences: rng.chance(0.5),
        airy: rng.chance(0.4),
        versionQuote: rng.chance(0.8) ? '"' : "'",
      },
      headerComments: rng.chance(0.4)
        ? [rng.pick(PHRASES), ...(rng.chance(0.5) ? [rng.pick(COMMENTS)] : [])]
        : [],
      contracts: new Map(),
      functions: [],
      flows: [],
      workflow: null,
    };
  }

  get v2(): boolean {
    return this.model.version === "0.2";
  }

  // ---- contracts ----------------------------------------------------------------------------

  newContract(depth = 0): Contract {
    const { rng } = this;
    const contract: Contract = {
      name: uniqueName(this.contractNames, rng.pick(CONTRACT_NAMES), ""),
      fields: [],
    };
    this.model.contracts.set(contract.name, contract);
    const used = new Set<string>();
    const n = rng.int(2, depth === 0 ? 5 : 3);
    for (let i = 0; i < n; i++) contract.fields.push(this.newField(contract.name, used, depth, i === 0));
    return contract;
  }

  private newField(owner: string, used: Set<string>, depth: number, first: boolean): FieldDef {
    const { rng } = this;
    const pick = (xs: readonly string[]) => rng.pick(xs);
    const required = first || !rng.chance(0.15);
    const block = rng.chance(0.15);
    const description = rng.chance(0.1) ? rng.pick(PHRASES) : undefined;
    const common = { required, block, ...(description !== undefined ? { description } : {}) };
    const r = rng.next();
    if (r < 0.1) {
      const [base, values] = rng.pick(ENUMS);
      return {
        name: freshName(pick, used, [base]),
        type: "string",
        values: rng.sample(values, rng.int(2, values.length)),
        ...common,
      };
    }
    if (r < 0.28) {
      const items = this.itemsType(depth);
      return {
        name: freshName(pick, used, FIELD_NAMES.array),
        type: "array",
        ...(items ? { items } : {}),
        ...common,
      };
    }
    const others = [...this.model.contracts.keys()].filter((c) => c !== owner);
    if (r < 0.31 && depth === 0 && others.length > 0) {
      const target = rng.pick(others);
      return {
        name: freshName(pick, used, ["owner", "parent", "author"]),
        type: target,
        ...common,
        required: true,
      };
    }
    const type: SimpleType = rng.pick([
      "string",
      "string",
      "string",
      "number",
      "integer",
      "boolean",
      "boolean",
      "object",
    ]);
    return { name: freshName(pick, used, FIELD_NAMES[type]), type, ...common };
  }

  private itemsType(depth: number): string | undefined {
    const r = this.rng.next();
    if (r < 0.45) return "string";
    if (r < 0.85 && depth === 0) return this.newContract(depth + 1).name;
    if (r < 0.9) return "integer";
    return undefined;
  }

  /** An existing top-level-looking contract or a new one. */
  someContract(): Contract {
    const existing = [...this.model.contracts.values()];
    return existing.length > 0 && this.rng.chance(0.3) ? this.rng.pick(existing) : this.newContract();
  }

  // ---- functions ----------------------------------------------------------------------------

  newFunction(): FunctionModel {
    const { rng } = this;
    const output = this.someContract();
    const name = uniqueName(this.functionNames, `${rng.pick(VERBS)}_${rng.pick(NOUNS)}`);
    const entries: Entry[] = [
      { key: "mode", value: inline(rng.chance(0.8) ? "infer" : "compute") },
      { key: "intent", value: prose(rng, rng.pick(PHRASES)) },
      { key: "input", value: this.functionInput() },
      { key: "output", value: inline(output.name) },
    ];
    if (rng.chance(0.7)) {
      entries.push({
        key: "ensure",
        value: this.expressionList(ensureList(rng, output, this.model.contracts, 3)),
      });
    }
    if (rng.chance(0.4)) {
      const comment = rng.chance(0.3) ? rng.pick(COMMENTS) : undefined;
      entries.push({ key: "retries", value: inline(String(rng.int(1, 4))), ...(comment ? { comment } : {}) });
    }
    if (rng.chance(0.12)) entries.push({ key: "budget", value: this.budget() });
    if (rng.chance(0.12)) entries.push({ key: "model", value: inline(rng.pick(MODELS)) });
    const fn: FunctionModel = { name, gate: false, output: output.name, entries };
    this.model.functions.push(fn);
    return fn;
  }

  /** The spec's gate function (usually one, shared by every gate step). */
  gate(): FunctionModel {
    const { rng } = this;
    if (this.gateFunction !== null && rng.chance(0.85)) return this.gateFunction;
    const entries: Entry[] = [{ key: "mode", value: inline("gate") }];
    if (rng.chance(0.3))
      entries.push({ key: "intent", value: prose(rng, "Approve the result before it is used") });
    if (rng.chance(0.4))
      entries.push({ key: "timeout", value: inline(String(rng.pick([600, 3600, 86400]))) });
    const fn: FunctionModel = {
      name: uniqueName(this.functionNames, rng.pick(["approval", "human_review", "sign_off", "merge_gate"])),
      gate: true,
      output: null,
      entries,
    };
    this.model.functions.push(fn);
    this.gateFunction ??= fn;
    return fn;
  }

  /** An existing non-gate function or a new one. */
  someFunction(): FunctionModel {
    const existing = this.model.functions.filter((f) => !f.gate);
    return existing.length > 0 && this.rng.chance(0.3) ? this.rng.pick(existing) : this.newFunction();
  }

  private functionInput() {
    const { rng } = this;
    if (rng.chance(0.15)) return inline("{}");
    const names = rng.sample(INPUT_NAMES, rng.int(1, 2));
    if (rng.chance(0.6)) return inline(`{${names.map((n) => `${n}: {type: string}`).join(", ")}}`);
    return { head: "", body: names.map((n) => `${n}: {type: ${rng.pick(["string", "object", "array"])}}`) };
  }

  budget() {
    const { rng } = this;
    return rng.chance(0.5)
      ? inline(`{ms: ${rng.pick([30000, 120000, 600000])}, usd: ${rng.pick(["0.25", "1.0", "2.5"])}}`)
      : { head: "", body: [`ms: ${rng.pick([60000, 300000])}`, `usd: ${rng.pick(["0.5", "3"])}`] };
  }

  /** A list of expressions as a block sequence (mixed scalar styles) or a flow sequence. */
  expressionList(exprs: readonly string[]) {
    const { rng } = this;
    if (rng.chance(0.25)) return inline(`[${exprs.map((e) => flowScalar(rng, e)).join(", ")}]`);
    const body: string[] = [];
    for (const e of exprs) {
      const v = blockScalar(rng, e);
      body.push(`- ${v.head}`);
      for (const line of v.body) body.push(`  ${line}`);
    }
    return { head: "", body };
  }

  // ---- flows --------------------------------------------------------------------------------

  newFlow(leaf: boolean): FlowModel {
    const { rng } = this;
    const base = leaf ? `${rng.pick(VERBS)}-${rng.pick(NOUNS).replace(/_/g, "-")}` : rng.pick(FLOW_NAMES);
    const name = uniqueName(this.flowNames, base, "-");
    const shared = leaf ? undefined : this.model.flows.find((f) => !f.leaf);
    if (shared !== undefined && rng.chance(0.3)) return this.flowSharingInput(name, shared);
    const inputs: InputDecl[] = rng.sample(INPUT_NAMES, rng.int(1, leaf ? 2 : 3)).map((n) => ({
      name: n,
      type: rng.pick<JsonType>(["string", "string", "string", "integer", "array"]),
    }));
    if (!leaf && rng.chance(0.5)) inputs.push({ name: rng.pick(FLAG_INPUTS), type: "boolean" });
    return this.addFlow(name, inputs, leaf, { key: "input", value: this.flowInput(inputs) });
  }

  /** A flow whose `input` is a YAML alias of another flow's (anchored) `input`. */
  private flowSharingInput(name: string, other: FlowModel): FlowModel {
    const input = other.header[0]!.value;
    const anchor = `${other.name.replace(/-/g, "_")}_input`;
    if (!input.head.startsWith("&"))
      input.head = input.head === "" ? `&${anchor}` : `&${anchor} ${input.head}`;
    return this.addFlow(name, other.inputs, false, { key: "input", value: inline(`*${anchor}`) });
  }

  private addFlow(name: string, inputs: InputDecl[], leaf: boolean, input: Entry): FlowModel {
    const { rng } = this;
    const header: Entry[] = [input];
    if (!this.v2 || rng.chance(0.6)) header.push({ key: "output", value: inline(this.someContract().name) });
    if (rng.chance(0.08)) header.push({ key: "budget", value: this.budget() });
    if (this.v2 && !leaf && rng.chance(0.2))
      header.push({ key: "max_rounds", value: inline(String(rng.int(1, 5))) });
    const flow: FlowModel = { name, inputs, leaf, header, steps: [] };
    this.model.flows.push(flow);
    return flow;
  }

  private flowInput(inputs: readonly InputDecl[]) {
    const { rng } = this;
    const decl = (i: InputDecl) =>
      rng.chance(0.15)
        ? `{type: ${i.type}, description: ${doubleQuoted(`The ${i.name.replace(/_/g, " ")}`)}}`
        : `{type: ${i.type}}`;
    if (rng.chance(0.3)) return inline(`{${inputs.map((i) => `${i.name}: ${decl(i)}`).join(", ")}}`);
    return { head: "", body: inputs.map((i) => `${i.name}: ${decl(i)}`) };
  }
}
