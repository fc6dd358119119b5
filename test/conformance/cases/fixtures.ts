// Bindings shared by the case tables. Values read from `result` have wide union types (the
// fields hold every kind), so run-time errors on them are not static errors.
export const RESULT = JSON.stringify({
  result: {
    score: 0.85,
    approved: true,
    v: "bad",
    min: 2,
    items: [{ status: "complete" }, { status: "complete" }, { status: "failed" }],
    values: [3, 5, 7],
    m: [1, "ab", null, [1, 2, 3], { x: 1 }, 2.5],
    a: { b: { c: 1 }, items: "shadow", count: 3, list: [10, 20] },
    n: null,
    e: {},
    u: [[1, 2, 3], [4]],
  },
});

/** A small namespace for repr / equality cases. */
export const SMALL = JSON.stringify({ result: { a: 1, b: "x" } });

export const EMPTY_RESULT = JSON.stringify({ result: {} });

export const BIG = `{"result": {"big": 123456789012345678901234567890, "neg": -9007199254740993, "f": 1e16, "z": -0.0}}`;
