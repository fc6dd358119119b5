// The end-to-end client's message encoding: user data goes on the wire as Python's json.dumps
// writes it (floats keep their `.0`), everything else as JSON.stringify writes it.
import { describe, expect, it } from "vitest";
import { makeDict } from "../../stdlib/values/dict";
import { parseJson } from "../../stdlib/values/json";
import { PyFloat } from "../../stdlib/values/value";
import { kindPreservingJson } from "./support/kind-preserving-transport";

describe("kindPreservingJson", () => {
  it("writes floats of the value model with their kind and plain data as JSON", () => {
    const result = makeDict([
      ["score", new PyFloat(1)],
      ["tiny", new PyFloat(1e-7)],
      ["count", 3],
      ["big", 2n ** 64n],
      ["items", [new PyFloat(2.5), 1, "é"]],
    ]);
    const message = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "stratum_step_done", arguments: { flow_id: "f", result }, absent: undefined },
    };
    expect(kindPreservingJson(message)).toBe(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"stratum_step_done","arguments":' +
        '{"flow_id":"f","result":{"score": 1.0, "tiny": 1e-07, "count": 3, "big": 18446744073709551616, ' +
        '"items": [2.5, 1, "\\u00e9"]}}}}',
    );
  });

  it("round-trips through the kind-preserving parser", () => {
    const text = '{"a": 1.0, "b": [1, 2.0, {"c": -0.0}], "d": null, "e": true}';
    expect(kindPreservingJson(parseJson(text))).toBe(text);
  });
});
