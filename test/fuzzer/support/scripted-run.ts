// A run of the fuzzer's driver over a spec, with a decider that takes scripted option names: the
// tests of single moves (usage, a second plan, score sequences) say which choices they want.
import { checkSpec } from "../../../checker/index";
import { fuzzTransport, virtualFiles } from "../../../fuzzer/index";
import type { Decider, Option } from "../../../fuzzer/run/decider";
import type { RunSetup } from "../../../fuzzer/run/driver";
import { Solver } from "../../../fuzzer/solver";
import { fuzzTarget } from "../../../fuzzer/target";
import { Shapes } from "../../../fuzzer/values/shapes";

export function setupOf(text: string, flow = "main", maxCalls = 60): RunSetup {
  const target = fuzzTarget(checkSpec(text));
  if (target === null) throw new Error("the spec does not check clean");
  const shapes = new Shapes(target.spec, target.literals);
  const solver = new Solver(target.spec, shapes, 42, virtualFiles(target.literals.strings));
  return { target, shapes, solver, transport: fuzzTransport(text), flow, maxCalls };
}

/**
 * Takes the scripted option names in order when offered (an option a random run can draw or
 * exhaustive mode enumerates; a name not offered waits for the next decision that offers it), else
 * the first option; notes the options offered at every decision.
 */
export class ScriptedDecider implements Decider {
  readonly endsAtRevisit = false;
  readonly offered: string[][] = [];
  constructor(
    private readonly script: string[],
    private readonly input: Record<string, unknown> = {},
  ) {}
  choose<T extends string>(options: readonly Option<T>[]): T {
    const live = options.filter((o) => o.weight > 0 || o.exhaustive);
    this.offered.push(live.map((o) => o.name));
    const wanted = live.find((o) => o.name === this.script[0]);
    if (wanted !== undefined) {
      this.script.shift();
      return wanted.name;
    }
    return options[0]!.name;
  }
  inputs(): Record<string, unknown> {
    return this.input;
  }
  value(): unknown {
    return undefined;
  }
}
