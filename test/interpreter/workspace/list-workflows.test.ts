// `listWorkflows` (docs/reference/runtime.md §18) over an in-memory workspace: file selection and order, error
// strings, duplicates, `input` as written, absolute resolved paths.
import { describe, expect, it } from "vitest";
import { encodeWire, wireToPlain } from "../../../interpreter/wire/encode";
import { listWorkflows } from "../../../interpreter/workspace/list-workflows";
import { MemoryWorkspace } from "./memory-workspace";

const spec = (name: string, input = "{}", description = "d"): string =>
  `version: "0.2"\nworkflow:\n  name: ${name}\n  description: "${description}"\n  input: ${input}\nflows:\n  ${name}:\n    input: ${input}\n    steps: [{id: a, intent: x}]\n`;

const PLAIN = 'version: "0.2"\nflows:\n  f:\n    input: {}\n    steps: [{id: a, intent: x}]\n';

function list(fs: MemoryWorkspace, dir = "wf"): { workflows: Record<string, unknown>[]; errors: string[] } {
  return wireToPlain(listWorkflows(fs, "/proj", dir)) as {
    workflows: Record<string, unknown>[];
    errors: string[];
  };
}

describe("listWorkflows", () => {
  it("lists *.stratum.yaml files directly in the directory, by code point, hidden ones included", () => {
    const fs = new MemoryWorkspace({
      "/proj/wf/b.stratum.yaml": spec("lower"),
      "/proj/wf/B.stratum.yaml": spec("upper"),
      "/proj/wf/.stratum.yaml": spec("hidden"),
      "/proj/wf/c.yaml": spec("not-listed"),
      "/proj/wf/d.STRATUM.YAML": spec("not-listed-either"),
      "/proj/wf/sub/e.stratum.yaml": spec("nested"),
    });
    const result = list(fs);
    expect(result.errors).toEqual([]);
    expect(result.workflows).toEqual([
      { name: "hidden", description: "d", input: {}, path: "/proj/wf/.stratum.yaml" },
      { name: "upper", description: "d", input: {}, path: "/proj/wf/B.stratum.yaml" },
      { name: "lower", description: "d", input: {}, path: "/proj/wf/b.stratum.yaml" },
    ]);
    expect(Object.keys(result.workflows[0] ?? {})).toEqual(["name", "description", "input", "path"]);
  });

  it("skips a valid spec without a workflow block silently", () => {
    expect(list(new MemoryWorkspace({ "/proj/wf/p.stratum.yaml": PLAIN }))).toEqual({
      workflows: [],
      errors: [],
    });
  });

  it("reports read failures, invalid UTF-8 and invalid specs, then skips the file", () => {
    const fs = new MemoryWorkspace(
      {
        "/proj/wf/a.stratum.yaml": { fail: "permission denied" },
        "/proj/wf/c.stratum.yaml": new Uint8Array([0x76, 0xff]),
        "/proj/wf/d.stratum.yaml": "a: [1, 2\n",
        "/proj/wf/e.stratum.yaml": 'version: "0.9"\n',
        "/proj/wf/f.stratum.yaml": "  \n",
      },
      ["/proj/wf/b.stratum.yaml"],
    );
    const result = list(fs);
    expect(result.workflows).toEqual([]);
    expect(result.errors[0]).toBe("a.stratum.yaml: permission denied");
    expect(result.errors[1]).toBe("b.stratum.yaml: is a directory");
    expect(result.errors[2]).toBe(
      "c.stratum.yaml: 'utf-8' codec can't decode byte 0xff in position 1: invalid start byte",
    );
    // YAML-family messages lose their "YAML syntax error: " prefix; others are kept whole.
    expect(result.errors[3]).toBe(
      "d.stratum.yaml: Flow sequence in block collection must be sufficiently indented and end with a ]",
    );
    expect(result.errors[4]).toBe("e.stratum.yaml: Unknown IR version: '0.9'");
    expect(result.errors[5]).toBe("f.stratum.yaml: Empty or blank YAML input");
    expect(result.errors).toHaveLength(6);
  });

  it("reports a duplicate workflow name with both absolute paths and keeps the first", () => {
    const fs = new MemoryWorkspace({
      "/proj/wf/1.stratum.yaml": spec("same", "{}", "first"),
      "/proj/wf/2.stratum.yaml": spec("same", "{}", "second"),
    });
    expect(list(fs)).toEqual({
      workflows: [{ name: "same", description: "first", input: {}, path: "/proj/wf/1.stratum.yaml" }],
      errors: ["Duplicate workflow name 'same': /proj/wf/1.stratum.yaml and /proj/wf/2.stratum.yaml"],
    });
  });

  it("gives `input` as written: key order (integer-like keys too), ints and floats apart", () => {
    const input = "{'2': {type: number, default: 1.0}, '1': {type: integer, default: 7}, z: {type: string}}";
    const fs = new MemoryWorkspace({ "/proj/wf/w.stratum.yaml": spec("w", input) });
    const response = listWorkflows(fs, "/proj", "wf");
    const workflows = response.workflows as readonly { input: unknown }[];
    expect(encodeWire(workflows[0]?.input as never)).toBe(
      '{"2": {"type": "number", "default": 1.0}, "1": {"type": "integer", "default": 7}, "z": {"type": "string"}}',
    );
  });

  it("resolves the directory against cwd with symbolic links resolved", () => {
    const fs = new MemoryWorkspace({ "/real/wf/w.stratum.yaml": spec("w") });
    fs.links.set("/proj/link", "/real/wf");
    expect(list(fs, "link/").workflows[0]?.path).toBe("/real/wf/w.stratum.yaml");
    expect(list(fs, "/proj/../real/./wf").workflows[0]?.path).toBe("/real/wf/w.stratum.yaml");
  });

  it("strips a byte order mark before validating", () => {
    const fs = new MemoryWorkspace({ "/proj/wf/w.stratum.yaml": `\uFEFF${spec("w")}` });
    expect(list(fs)).toMatchObject({ workflows: [{ name: "w" }], errors: [] });
  });

  it("lists nothing for a missing directory or a file", () => {
    const fs = new MemoryWorkspace({ "/proj/file.stratum.yaml": spec("f") });
    expect(list(fs, "missing")).toEqual({ workflows: [], errors: [] });
    expect(list(fs, "file.stratum.yaml")).toEqual({ workflows: [], errors: [] });
  });
});
