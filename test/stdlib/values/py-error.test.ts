// A Python-level error carries its kind and message and no JavaScript stack (nobody reads it, and
// capturing it was most of the cost of raising one); the stack limit of other errors is untouched.
import { describe, expect, it } from "vitest";
import { PyError } from "../../../stdlib/values/errors";

describe("PyError", () => {
  it("has no stack frames, and other errors keep theirs", () => {
    const limit = Error.stackTraceLimit;
    const e = new PyError("ValueError", "bad value");
    expect(String(e)).toBe("ValueError: bad value");
    expect(e.stack ?? "").not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error("plain").stack ?? "").toMatch(/\n\s+at /);
  });
});
