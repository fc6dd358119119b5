// A scenario test file's text → its model (model.ts) and TEST-SCHEMA diagnostics, through the
// checker's YAML front end (exact ranges). A malformed entry is reported once, at what is wrong,
// and left out of the model, so later checks see only well-formed entries.
import type { SourceRange } from "../base/source-range";
import { suggest } from "../expr/did-you-mean";
import type { Reporter } from "../report";
import type { SpecSource } from "../source";
import { loadYaml } from "../yaml/load";
import type { MapNode, SpecNode } from "../yaml/nodes";
import {
  EXPECTED_STATUSES,
  GATE_OUTCOMES,
  type Located,
  MERGE_STATUSES,
  type ParallelTaskEntry,
  type ScenarioExpect,
  type ScenarioFile,
  type ScenarioFiles,
  type ScenarioTest,
  type ScriptEntry,
  STEP_STATUSES,
  type StepExpectation,
  TASK_STATUSES,
} from "./model";
import { TEST_SCHEMA } from "./TEST-SCHEMA";

/** The keys that say what a script entry answers, each with the keys it may have beside it. */
const ENTRY_KEYS: Readonly<Record<ScriptEntry["kind"], readonly string[]>> = {
  step: ["step", "result", "fail"],
  gate: ["gate", "outcome", "note"],
  skip: ["skip", "reason"],
  iteration: ["iteration", "report", "abort"],
  parallel: ["parallel", "tasks", "merge"],
};
const ENTRY_KINDS = Object.keys(ENTRY_KEYS) as ScriptEntry["kind"][];

export function loadScenario(source: SpecSource, reporter: Reporter): ScenarioFile | null {
  const loaded = loadYaml(source, reporter);
  if (!loaded.ok) return null;
  return new Loader(reporter).file(loaded.root);
}

class Loader {
  constructor(private readonly reporter: Reporter) {}

  private error(range: SourceRange, message: string, path: string): void {
    this.reporter.report(TEST_SCHEMA, { message: TEST_SCHEMA.message(message), path, range });
  }

  /** The mapping, or null (reported) when `node` is something else. */
  private map(node: SpecNode, path: string, what: string): MapNode | null {
    if (node.kind === "map") return node;
    this.error(node.range, `${what} must be a mapping`, path);
    return null;
  }

  /** Reports every key of `map` not in `allowed`. */
  private keys(map: MapNode, allowed: readonly string[], path: string): void {
    for (const entry of map.entries) {
      if (entry.name !== null && allowed.includes(entry.name)) continue;
      const name = entry.name ?? "(a key that is not a string)";
      const near = entry.name === null ? null : suggest(entry.name, allowed);
      const hint =
        near === null ? `; expected one of ${allowed.join(", ")}` : `; did you mean '${near.candidate}'?`;
      this.error(entry.key.range, `unknown key '${name}'${hint}`, path);
    }
  }

  private string(node: SpecNode | undefined, path: string, what: string): Located<string> | null {
    if (node === undefined) return null;
    if (node.kind === "scalar" && typeof node.value === "string")
      return { value: node.value, range: node.range };
    this.error(node.range, `${what} must be a string`, path);
    return null;
  }

  private required(map: MapNode, key: string, path: string, what: string): Located<string> | null {
    const entry = map.get(key);
    if (entry === undefined) {
      this.error(map.range, `${what} needs '${key}'`, path);
      return null;
    }
    return this.string(entry.value, `${path}.${key}`, `'${key}'`);
  }

  private oneOf<T extends string>(
    node: SpecNode | undefined,
    choices: readonly T[],
    path: string,
    what: string,
  ): Located<T> | null {
    const s = this.string(node, path, what);
    if (s === null) return null;
    if ((choices as readonly string[]).includes(s.value)) return s as Located<T>;
    this.error(s.range, `${what} must be one of ${choices.join(", ")}, not '${s.value}'`, path);
    return null;
  }

  file(root: SpecNode): ScenarioFile | null {
    const map = this.map(root, "", "a test file");
    if (map === null) return null;
    this.keys(map, ["spec", "flow", "files", "tests"], "");
    const files = this.files(map.get("files")?.value, "files", new Map());
    const spec = this.required(map, "spec", "", "a test file");
    const flow = this.required(map, "flow", "", "a test file");
    const testsEntry = map.get("tests");
    const tests: ScenarioTest[] = [];
    if (testsEntry === undefined) this.error(map.range, "a test file needs 'tests'", "");
    else {
      const testsMap = this.map(testsEntry.value, "tests", "'tests' (test name → test)");
      for (const entry of testsMap?.entries ?? []) {
        if (entry.name === null) {
          this.error(entry.key.range, "a test's name must be a string", "tests");
          continue;
        }
        const test = this.test({ value: entry.name, range: entry.key.range }, entry.value, files);
        if (test !== null) tests.push(test);
      }
    }
    if (spec === null || flow === null) return null;
    return { spec, flow, files, tests };
  }

  /** `files:` (path → text) over the files it inherits. */
  private files(node: SpecNode | undefined, path: string, inherited: ScenarioFiles): ScenarioFiles {
    if (node === undefined) return inherited;
    const map = this.map(node, path, "'files' (path → text)");
    const out = new Map(inherited);
    for (const entry of map?.entries ?? []) {
      const text = this.string(entry.value, `${path}.${entry.name ?? ""}`, "a file's text");
      if (entry.name === null) this.error(entry.key.range, "a file's path must be a string", path);
      else if (text !== null) out.set(entry.name, text.value);
    }
    return out;
  }

  private test(name: Located<string>, node: SpecNode, inherited: ScenarioFiles): ScenarioTest | null {
    const path = `tests.${name.value}`;
    const map = this.map(node, path, `test '${name.value}'`);
    if (map === null) return null;
    this.keys(map, ["input", "files", "script", "expect"], path);
    const files = this.files(map.get("files")?.value, `${path}.files`, inherited);
    const input = map.get("input")?.value ?? null;
    if (input !== null && input.kind !== "map")
      this.error(input.range, "'input' must be a mapping", `${path}.input`);
    const script: ScriptEntry[] = [];
    const scriptNode = map.get("script")?.value;
    if (scriptNode !== undefined) {
      if (scriptNode.kind !== "seq")
        this.error(scriptNode.range, "'script' must be a list", `${path}.script`);
      else
        scriptNode.items.forEach((item, i) => {
          const entry = this.entry(item, `${path}.script[${i}]`);
          if (entry !== null) script.push(entry);
        });
    }
    const expectNode = map.get("expect")?.value;
    const expect = expectNode === undefined ? null : this.expect(expectNode, `${path}.expect`);
    return {
      name,
      files,
      input: input?.kind === "map" ? input : null,
      script,
      expect,
      range: { start: name.range.start, end: node.range.end },
    };
  }

  private entry(node: SpecNode, path: string): ScriptEntry | null {
    const map = this.map(node, path, "a script entry");
    if (map === null) return null;
    const kinds = ENTRY_KINDS.filter((k) => map.get(k) !== undefined);
    if (kinds.length !== 1) {
      this.error(
        map.range,
        kinds.length === 0
          ? `a script entry names what it answers with one of ${ENTRY_KINDS.join(", ")}`
          : `a script entry answers one thing, not ${kinds.join(" and ")}`,
        path,
      );
      return null;
    }
    const kind = kinds[0]!;
    this.keys(map, ENTRY_KEYS[kind], path);
    const step = this.string(map.get(kind)?.value, `${path}.${kind}`, `'${kind}'`);
    if (step === null) return null;
    const range = map.range;
    switch (kind) {
      case "step": {
        const result = map.get("result")?.value ?? null;
        const failNode = map.get("fail")?.value;
        const fail =
          failNode === undefined ? null : this.string(failNode, `${path}.fail`, "'fail' (the reason)");
        if (result === null && failNode === undefined) {
          this.error(
            range,
            "a step entry needs 'result' (the step's result) or 'fail' (a refused attempt)",
            path,
          );
          return null;
        }
        if (failNode !== undefined && fail === null) return null;
        return { kind, step, result, fail, range };
      }
      case "gate": {
        const outcomeEntry = map.get("outcome");
        if (outcomeEntry === undefined) {
          this.error(range, "a gate entry needs 'outcome' (approve, revise or kill)", path);
          return null;
        }
        const outcome = this.oneOf(outcomeEntry.value, GATE_OUTCOMES, `${path}.outcome`, "'outcome'");
        const note = this.string(map.get("note")?.value, `${path}.note`, "'note'");
        return outcome === null ? null : { kind, step, outcome, note: note?.value ?? "", range };
      }
      case "skip": {
        const reason = this.string(map.get("reason")?.value, `${path}.reason`, "'reason'");
        return { kind, step, reason: reason?.value ?? "skipped by the test", range };
      }
      case "iteration": {
        const report = map.get("report")?.value ?? null;
        const abortNode = map.get("abort")?.value;
        if ((report === null) === (abortNode === undefined)) {
          this.error(
            range,
            "an iteration entry has either 'report' (one iteration's result) or 'abort' (a reason)",
            path,
          );
          return null;
        }
        const abort = abortNode === undefined ? null : this.string(abortNode, `${path}.abort`, "'abort'");
        if (abortNode !== undefined && abort === null) return null;
        return { kind, step, report, abort: abort?.value ?? null, range };
      }
      case "parallel": {
        const tasksNode = map.get("tasks")?.value;
        if (tasksNode === undefined || tasksNode.kind !== "seq") {
          this.error(
            tasksNode?.range ?? range,
            "a parallel entry needs 'tasks', a list of {id, result}",
            path,
          );
          return null;
        }
        const tasks: ParallelTaskEntry[] = [];
        tasksNode.items.forEach((item, i) => {
          const task = this.task(item, `${path}.tasks[${i}]`);
          if (task !== null) tasks.push(task);
        });
        const mergeNode = map.get("merge")?.value;
        const merge =
          mergeNode === undefined ? null : this.oneOf(mergeNode, MERGE_STATUSES, `${path}.merge`, "'merge'");
        return { kind, step, tasks, merge: merge?.value ?? "clean", range };
      }
    }
  }

  private task(node: SpecNode, path: string): ParallelTaskEntry | null {
    const map = this.map(node, path, "a task");
    if (map === null) return null;
    this.keys(map, ["id", "result", "status"], path);
    const id = this.required(map, "id", path, "a task");
    const statusNode = map.get("status")?.value;
    const status =
      statusNode === undefined ? null : this.oneOf(statusNode, TASK_STATUSES, `${path}.status`, "'status'");
    if (id === null) return null;
    return {
      id,
      result: map.get("result")?.value ?? null,
      status: status?.value ?? "complete",
      range: map.range,
    };
  }

  private expect(node: SpecNode, path: string): ScenarioExpect | null {
    const map = this.map(node, path, "'expect'");
    if (map === null) return null;
    this.keys(map, ["status", "output", "steps"], path);
    const status = this.oneOf(map.get("status")?.value, EXPECTED_STATUSES, `${path}.status`, "'status'");
    const steps: StepExpectation[] = [];
    const stepsNode = map.get("steps")?.value;
    if (stepsNode !== undefined) {
      const stepsMap = this.map(stepsNode, `${path}.steps`, "'steps' (step → status)");
      for (const entry of stepsMap?.entries ?? []) {
        if (entry.name === null) {
          this.error(entry.key.range, "a step id must be a string", `${path}.steps`);
          continue;
        }
        const s = this.oneOf(entry.value, STEP_STATUSES, `${path}.steps.${entry.name}`, "a step's status");
        if (s !== null) steps.push({ step: { value: entry.name, range: entry.key.range }, status: s });
      }
    }
    return { status, output: map.get("output")?.value ?? null, steps, range: map.range };
  }
}
