// Every builtin and method against outcomes recorded from CPython 3.11 (scripts/gen-cpython-builtin-cases.py).
import { describe, expect, it } from "vitest";
import { callBuiltin, callMethod } from "../../../stdlib/builtins/attributes";
import { CPYTHON_CASES } from "./cpython-cases.generated";
import { env, kw, outcome } from "./support";

describe("builtins and methods match CPython", () => {
  it.each(CPYTHON_CASES.map((c) => [c[0].length > 80 ? `${c[0].slice(0, 77)}...` : c[0], c] as const))(
    "%s",
    (_label, [, receiver, name, args, kwargs, expected]) => {
      const e = env();
      const got = outcome(() =>
        receiver === null
          ? callBuiltin(name, args, kw(kwargs), e)
          : callMethod(receiver, name, args, kw(kwargs), e),
      );
      expect(got).toBe(expected);
    },
  );
});
