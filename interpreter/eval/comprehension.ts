// List comprehensions and generator expressions (docs/reference/language.md §10.8.10): `for` clauses are nested
// loops, `if` clauses filter; the first iterable is evaluated in the enclosing scope, everything
// else inside the comprehension's own scope (lexical scoping). Budget: 1 per element visited by
// any `for` clause and 1 per element produced, on top of the nodes evaluated.
import type { Comprehension, GeneratorExp, ListComp, Target } from "../../grammar/ast";
import type { Budget } from "../../stdlib/values/budget";
import { PyError, typeError, valueError } from "../../stdlib/values/errors";
import { iterate, makeGenerator } from "../../stdlib/values/iteration";
import { truthy } from "../../stdlib/values/truth";
import { type PyValue, typeName } from "../../stdlib/values/value";
import type { Code, CompileFn, EvalContext, Frame } from "./context";
import { CompileScope } from "./scope";

type Assign = (frame: Frame, value: PyValue, budget: Budget) => void;

interface Clause {
  /** Evaluates the clause's iterable (for the first clause: in the enclosing frame). */
  readonly iter: Code;
  readonly assign: Assign;
  readonly ifs: readonly Code[];
}

function declareTargets(t: Target, scope: CompileScope): void {
  if (t.kind === "Name") scope.declare(t.id);
  else for (const e of t.elts) declareTargets(e, scope);
}

/** Iterates `v` for unpacking, turning "not iterable" into Python's unpacking message. */
function unpackIterator(v: PyValue): Iterator<PyValue> {
  try {
    return iterate(v);
  } catch (e) {
    if (e instanceof PyError && e.kind === "TypeError") {
      throw typeError(`cannot unpack non-iterable ${typeName(v)} object`);
    }
    throw e;
  }
}

function compileTarget(t: Target, scope: CompileScope): Assign {
  if (t.kind === "Name") {
    const slot = scope.declare(t.id);
    return (frame, value) => {
      frame.slots[slot] = value;
    };
  }
  const parts = t.elts.map((e) => compileTarget(e, scope));
  const n = parts.length;
  return (frame, value, budget) => {
    const it = unpackIterator(value);
    const values: PyValue[] = [];
    for (let r = it.next(); !r.done; r = it.next()) {
      if (values.length === n) throw valueError(`too many values to unpack (expected ${n})`);
      budget.charge(1);
      values.push(r.value);
    }
    if (values.length < n)
      throw valueError(`not enough values to unpack (expected ${n}, got ${values.length})`);
    for (let i = 0; i < n; i++) parts[i]!(frame, values[i]!, budget);
  };
}

function compileClauses(
  generators: readonly Comprehension[],
  compile: CompileFn,
  outer: CompileScope | null,
  scope: CompileScope,
): Clause[] {
  // Every target of every clause is a variable of this comprehension, visible (possibly still
  // unbound) everywhere inside it, as in Python.
  for (const g of generators) declareTargets(g.target, scope);
  return generators.map((g, i) => ({
    iter: compile(g.iter, i === 0 ? outer : scope),
    assign: compileTarget(g.target, scope),
    ifs: g.ifs.map((c) => compile(c, scope)),
  }));
}

function passes(ifs: readonly Code[], ctx: EvalContext, frame: Frame): boolean {
  for (const test of ifs) if (!truthy(test(ctx, frame))) return false;
  return true;
}

function newFrame(size: number, parent: Frame | null): Frame {
  return { slots: new Array<PyValue | undefined>(size).fill(undefined), parent };
}

export function compileListComp(node: ListComp, compile: CompileFn, outer: CompileScope | null): Code {
  const scope = new CompileScope(outer);
  const clauses = compileClauses(node.generators, compile, outer, scope);
  const elt = compile(node.elt, scope);
  const last = clauses.length - 1;

  const run = (
    ctx: EvalContext,
    frame: Frame,
    level: number,
    it: Iterator<PyValue>,
    out: PyValue[],
  ): void => {
    const clause = clauses[level]!;
    const budget = ctx.env.budget;
    for (let r = it.next(); !r.done; r = it.next()) {
      budget.charge(1);
      clause.assign(frame, r.value, budget);
      if (!passes(clause.ifs, ctx, frame)) continue;
      if (level < last) {
        run(ctx, frame, level + 1, iterate(clauses[level + 1]!.iter(ctx, frame)), out);
      } else {
        budget.charge(1);
        out.push(elt(ctx, frame));
      }
    }
  };

  return (ctx, parent) => {
    ctx.env.budget.charge(1);
    const first = iterate(clauses[0]!.iter(ctx, parent));
    const out: PyValue[] = [];
    run(ctx, newFrame(scope.size, parent), 0, first, out);
    return out;
  };
}

export function compileGeneratorExp(
  node: GeneratorExp,
  compile: CompileFn,
  outer: CompileScope | null,
): Code {
  const scope = new CompileScope(outer);
  const clauses = compileClauses(node.generators, compile, outer, scope);
  const elt = compile(node.elt, scope);
  const last = clauses.length - 1;

  function* run(ctx: EvalContext, frame: Frame, level: number, it: Iterator<PyValue>): Generator<PyValue> {
    const clause = clauses[level]!;
    const budget = ctx.env.budget;
    for (let r = it.next(); !r.done; r = it.next()) {
      budget.charge(1);
      clause.assign(frame, r.value, budget);
      if (!passes(clause.ifs, ctx, frame)) continue;
      if (level < last) {
        yield* run(ctx, frame, level + 1, iterate(clauses[level + 1]!.iter(ctx, frame)));
      } else {
        budget.charge(1);
        yield elt(ctx, frame);
      }
    }
  }

  return (ctx, parent) => {
    ctx.env.budget.charge(1);
    // Only the first iterable is evaluated (and iterated) when the generator is created.
    const first = iterate(clauses[0]!.iter(ctx, parent));
    return makeGenerator(run(ctx, newFrame(scope.size, parent), 0, first));
  };
}
