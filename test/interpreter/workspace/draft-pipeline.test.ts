// `draftPipeline` (docs/reference/runtime.md §20): path, defaults for name/phases, the JSON text written.
import { describe, expect, it } from "vitest";
import { draftPipeline } from "../../../interpreter/workspace/draft-pipeline";
import { parseJson } from "../../../stdlib/values/json";
import { PyDict } from "../../../stdlib/values/value";
import { MemoryWorkspace } from "./memory-workspace";

const written = (fs: MemoryWorkspace, path: string): unknown => fs.files.get(path);

describe("draftPipeline", () => {
  it("writes <project_dir>/.stratum/pipeline-draft.json as 2-space JSON and answers saved", () => {
    const fs = new MemoryWorkspace({}, ["/proj"]);
    const draft = parseJson(
      '{"name": "ship", "phases": [{"name": "scout", "capability": "scout", "policy": "gate"}], "x": 1.0}',
    );
    expect(draftPipeline(fs, "/proj", draft)).toEqual({
      status: "saved",
      path: "/proj/.stratum/pipeline-draft.json",
    });
    expect(written(fs, "/proj/.stratum/pipeline-draft.json")).toBe(
      [
        "{",
        '  "name": "ship",',
        '  "phases": [',
        "    {",
        '      "name": "scout",',
        '      "capability": "scout",',
        '      "policy": "gate"',
        "    }",
        "  ],",
        '  "x": 1.0',
        "}",
      ].join("\n"),
    );
  });

  it("defaults a missing or invalid name and phases; a replaced key keeps its place", () => {
    const fs = new MemoryWorkspace({}, ["/proj"]);
    draftPipeline(fs, "/proj", parseJson('{"phases": {"not": "a list"}, "name": "", "é": "\\u00e9"}'));
    expect(written(fs, "/proj/.stratum/pipeline-draft.json")).toBe(
      '{\n  "phases": [],\n  "name": "my-pipeline",\n  "\\u00e9": "\\u00e9"\n}',
    );
    draftPipeline(fs, "/proj", parseJson('{"name": 3}'));
    expect(written(fs, "/proj/.stratum/pipeline-draft.json")).toBe(
      '{\n  "name": "my-pipeline",\n  "phases": []\n}',
    );
  });

  it("does not mutate the draft it was given", () => {
    const draft = parseJson("{}");
    draftPipeline(new MemoryWorkspace({}, ["/proj"]), "/proj", draft);
    expect((draft as PyDict).size).toBe(0);
  });

  it("takes a draft that is not an object as {}", () => {
    const fs = new MemoryWorkspace({}, ["/proj"]);
    draftPipeline(fs, "/proj", [1, 2]);
    expect(written(fs, "/proj/.stratum/pipeline-draft.json")).toBe(
      '{\n  "name": "my-pipeline",\n  "phases": []\n}',
    );
  });

  it("resolves project_dir against cwd, symbolic links resolved", () => {
    const fs = new MemoryWorkspace({}, ["/real/app"]);
    fs.links.set("/proj/app", "/real/app");
    expect(draftPipeline(fs, "/proj", new PyDict(), "app/")).toEqual({
      status: "saved",
      path: "/real/app/.stratum/pipeline-draft.json",
    });
    expect(draftPipeline(fs, "/proj", new PyDict(), "/elsewhere/x/..")).toMatchObject({
      path: "/elsewhere/.stratum/pipeline-draft.json",
    });
  });

  it("reports a write failure as a tool error naming the file", () => {
    const fs = new MemoryWorkspace({}, ["/proj"]);
    fs.writeFailures.set("/proj/.stratum/pipeline-draft.json", "permission denied");
    expect(draftPipeline(fs, "/proj", new PyDict())).toEqual({
      status: "error",
      error_type: "write_error",
      message: "Cannot write '/proj/.stratum/pipeline-draft.json': permission denied",
    });
  });
});
