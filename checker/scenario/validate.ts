// A loaded test file against the checked spec it names: the flow exists, every script entry and
// expectation names a step of the flow (or of a sub-flow it runs) answered the way that step is
// answered, and every scripted result conforms to the step's output contract, field by field.
import { STEP_KIND_TABLE } from "../base/step-kinds";
import { suggest } from "../expr/did-you-mean";
import { reachableFlows } from "../ir/reachable-flows";
import type { CheckedSpec, ContractIR, FieldDefIR, StepIR } from "../ir/types";
import type { Reporter } from "../report";
import type { MapNode, SpecNode } from "../yaml/nodes";
import { toJson } from "../yaml/to-json";
import type { Located, ScenarioFile, ScriptEntry } from "./model";
import { TEST_RESULT_CONTRACT } from "./TEST-RESULT-CONTRACT";
import { TEST_SPEC } from "./TEST-SPEC";
import { TEST_UNKNOWN_STEP } from "./TEST-UNKNOWN-STEP";
import { nodeKind } from "./values";

export function validateScenario(file: ScenarioFile, spec: CheckedSpec, reporter: Reporter): void {
  const flow = spec.flows.get(file.flow.value);
  if (flow === undefined) {
    const near = suggest(file.flow.value, spec.flows.keys());
    reporter.report(TEST_SPEC, {
      message: TEST_SPEC.message(
        `the spec has no flow '${file.flow.value}'${near === null ? "" : `; did you mean '${near.candidate}'?`}`,
      ),
      path: "flow",
      range: file.flow.range,
    });
    return;
  }
  const steps = new Map<string, StepIR>();
  for (const f of reachableFlows(spec, flow))
    for (const s of f.steps) if (!steps.has(s.id)) steps.set(s.id, s);
  const v = new Validator(spec, steps, reporter);
  for (const test of file.tests) {
    test.script.forEach((entry, i) => {
      v.entry(entry, `tests.${test.name.value}.script[${i}]`);
    });
    for (const e of test.expect?.steps ?? []) {
      if (!flow.stepById.has(e.step.value))
        v.unknown(e.step, flow.stepById.keys(), `tests.${test.name.value}.expect.steps`);
    }
  }
}

class Validator {
  constructor(
    private readonly spec: CheckedSpec,
    private readonly steps: ReadonlyMap<string, StepIR>,
    private readonly reporter: Reporter,
  ) {}

  unknown(name: Located<string>, candidates: Iterable<string>, path: string): void {
    const near = suggest(name.value, candidates);
    this.reporter.report(TEST_UNKNOWN_STEP, {
      message: TEST_UNKNOWN_STEP.message(
        `the flow has no step '${name.value}'${near === null ? "" : `; did you mean '${near.candidate}'?`}`,
      ),
      path,
      range: name.range,
    });
  }

  private wrongWay(name: Located<string>, why: string, path: string): void {
    this.reporter.report(TEST_UNKNOWN_STEP, {
      message: TEST_UNKNOWN_STEP.message(why),
      path,
      range: name.range,
    });
  }

  entry(entry: ScriptEntry, path: string): void {
    const step = this.steps.get(entry.step.value);
    if (step === undefined) {
      this.unknown(entry.step, this.steps.keys(), path);
      return;
    }
    const id = step.id;
    const isGate = step.kind === "gate";
    const parallel = STEP_KIND_TABLE[step.kind].parallel;
    switch (entry.kind) {
      case "gate":
        if (!isGate) this.wrongWay(entry.step, `step '${id}' is not a gate; answer it with 'step:'`, path);
        return;
      case "skip":
        return;
      case "iteration":
        if (step.maxIterations === null)
          this.wrongWay(entry.step, `step '${id}' has no iteration loop (max_iterations)`, path);
        else if (entry.report !== null) this.result(step, entry.report, `${path}.report`, false);
        return;
      case "parallel":
        if (!parallel)
          this.wrongWay(entry.step, `step '${id}' is not a parallel step; answer it with 'step:'`, path);
        return;
      case "step":
        if (isGate)
          this.wrongWay(entry.step, `step '${id}' is a gate; answer it with 'gate:' and an outcome`, path);
        else if (parallel)
          this.wrongWay(
            entry.step,
            `step '${id}' runs tasks in parallel; answer it with 'parallel:' and its tasks`,
            path,
          );
        else if (step.flow !== null)
          this.wrongWay(
            entry.step,
            `step '${id}' runs the flow '${step.flow}': script that flow's steps, whose completion answers it`,
            path,
          );
        else if (entry.result !== null && entry.fail === null)
          this.result(step, entry.result, `${path}.result`, true);
        return;
    }
  }

  /** A result against the step's output contract (an iteration report is not checked against it). */
  private result(step: StepIR, node: SpecNode, path: string, contract: boolean): void {
    if (!contract) return;
    const c = this.contractOf(step);
    if (c === undefined) return;
    if (node.kind !== "map") {
      this.contractError(
        node,
        `a result of step '${step.id}' must be a mapping (contract '${c.name}')`,
        path,
      );
      return;
    }
    this.fields(node, c, path);
  }

  /** As the interpreter checks a result: the function's output for a function step, else the step's output_contract. */
  private contractOf(step: StepIR): ContractIR | undefined {
    if (step.kind === "function") {
      const fn = this.spec.functions.get(step.function ?? "");
      return fn === undefined || fn.output === "" ? undefined : this.spec.contracts.get(fn.output);
    }
    return step.outputContract === null ? undefined : this.spec.contracts.get(step.outputContract);
  }

  private contractError(node: SpecNode, message: string, path: string): void {
    this.reporter.report(TEST_RESULT_CONTRACT, {
      message: TEST_RESULT_CONTRACT.message(message),
      path,
      range: node.range,
    });
  }

  private fields(map: MapNode, contract: ContractIR, path: string): void {
    for (const [name, def] of contract.fields) {
      const entry = map.get(name);
      if (entry === undefined) {
        if (def.required)
          this.contractError(map, `missing required field '${name}' (contract '${contract.name}')`, path);
        continue;
      }
      this.value(entry.value, def, `${path}.${name}`);
    }
  }

  private value(node: SpecNode, def: FieldDefIR, path: string): void {
    const kind = nodeKind(node);
    if (kind === "null" && !def.required) return;
    const ok =
      def.kind === "contract"
        ? kind === "object"
        : def.kind === "number"
          ? kind === "number" || kind === "integer"
          : kind === def.kind;
    if (!ok) {
      this.contractError(
        node,
        `field '${path.split(".").pop()}' must be of type ${def.type}, got ${kind}`,
        path,
      );
      return;
    }
    if (def.values !== null) {
      const text = JSON.stringify(toJson(node));
      if (!def.values.some((v) => JSON.stringify(v) === text)) {
        this.contractError(
          node,
          `must be one of ${def.values.map((v) => JSON.stringify(v)).join(", ")}`,
          path,
        );
      }
    }
    if (node.kind === "seq" && def.items !== null) {
      const items = def.items;
      node.items.forEach((item, i) => {
        this.value(item, items, `${path}[${i}]`);
      });
    } else if (node.kind === "map" && def.kind === "contract") {
      const nested = this.spec.contracts.get(def.type);
      if (nested !== undefined) this.fields(node, nested, path);
    }
  }
}
