// Compile-time scopes of comprehension variables (docs/reference/language.md §10.6, docs/reference/language.md §10.8.10): every
// comprehension has its own scope holding all of its `for` targets; names resolve lexically,
// innermost comprehension first.
import { PyError } from "../../stdlib/values/errors";
import type { PyValue } from "../../stdlib/values/value";
import type { Frame } from "./context";

export class CompileScope {
  private readonly slots = new Map<string, number>();
  constructor(readonly parent: CompileScope | null) {}

  /** Declares a target name (idempotent) and returns its slot. */
  declare(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.slots.size;
      this.slots.set(name, slot);
    }
    return slot;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Where a name lives: `depth` frames up from the current one, or null when not a variable. */
  resolve(name: string): { depth: number; slot: number } | null {
    let depth = 0;
    for (let s: CompileScope | null = this; s !== null; s = s.parent, depth++) {
      const slot = s.slots.get(name);
      if (slot !== undefined) return { depth, slot };
    }
    return null;
  }
}

/** Python's messages for a comprehension variable read before its `for` clause assigned it. */
function unboundVariable(name: string, depth: number): PyError {
  // CPython raises UnboundLocalError (a NameError subclass) for the local case; we report both
  // as NameError since our error kinds follow the catalogue of docs/reference/language.md §10.13.
  return new PyError(
    "NameError",
    depth === 0
      ? `cannot access local variable '${name}' where it is not associated with a value`
      : `cannot access free variable '${name}' where it is not associated with a value in enclosing scope`,
  );
}

/** Reads a variable `depth` frames up (a frame always exists where a variable resolves). */
export function frameAt(frame: Frame | null, depth: number): Frame {
  let f = frame;
  for (let i = 0; i < depth && f !== null; i++) f = f.parent;
  if (f === null) throw new PyError("NameError", "comprehension frame missing");
  return f;
}

export function readSlot(frame: Frame, slot: number, name: string, depth: number): PyValue {
  const v = frame.slots[slot];
  if (v === undefined) throw unboundVariable(name, depth);
  return v;
}
