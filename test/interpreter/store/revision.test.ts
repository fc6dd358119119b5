// Reading a flow file's revision without decoding it (interpreter/store/revision.ts).
import { describe, expect, it } from "vitest";
import { revisionOf } from "../../../interpreter/store/revision";
import { flowText } from "./flow-text";

describe("revisionOf", () => {
  it.each([0, 1, 42, 9007199254740991])("reads revision %d from our layout", (revision) => {
    expect(revisionOf(flowText("f", revision))).toBe(revision);
  });

  it.each([
    ['{"revision": 4, "status": "running"}', 4],
    ['{\n  "flow_id": "f",\n  "inputs": {\n    "revision": 7\n  }\n}', 0],
    ['{"flow_id": "f"}', 0],
    ["{}", 0],
    ['{"revision": 9007199254740992}', null],
    ['{"revision": "3"}', null],
    ['{"revision": -1}', null],
    ['{"revision": 2.0}', null],
    ["[1]", null],
    ["{ not json", null],
    ["", null],
  ])("%j → %s", (text, expected) => {
    expect(revisionOf(text)).toBe(expected);
  });

  it("ignores a nested revision that looks like the tail", () => {
    const nested = '{\n  "a": {\n    "revision": 5,\n    "status": "running"\n  }\n}';
    expect(revisionOf(nested)).toBe(0);
  });
});
