// Step ids from file names and the dependency rule (docs/reference/runtime.md §19.3).
import { describe, expect, it } from "vitest";
import { dependencies } from "../../../interpreter/speckit/dependencies";
import { fileStem, findIdCollision, stepIdOf, type Task } from "../../../interpreter/speckit/step-id";

describe("step ids", () => {
  it.each([
    ["01-research.md", "t01_research"],
    ["02a-backend.md", "t02a_backend"],
    ["My Task.md", "my_task"],
    ["03 Integrate.md", "t03_integrate"],
    ["__x--y__.md", "x__y"], // runs of _ are not collapsed; ends stripped
    ["research.md", "research"],
    ["a.b.md", "a_b"], // only the last extension goes
    ["---.md", "task"],
    [".md", "md"], // a dot-file has no extension (pathlib)
    [".hidden.md", "hidden"],
    ["Été 2.md", "t__2"], // é lowercases to é, which is not a-z: one _ per code point
    ["😀x.md", "x"],
    ["\u212Aelvin.md", "kelvin"], // KELVIN SIGN lowercases to k
    ["9.md", "t9"],
  ])("%j → %j", (name, id) => {
    expect(stepIdOf(name)).toBe(id);
  });

  it("fileStem follows pathlib", () => {
    expect(fileStem("a.md")).toBe("a");
    expect(fileStem(".md")).toBe(".md");
    expect(fileStem("..md")).toBe(".");
    expect(fileStem("noext")).toBe("noext");
  });

  it("reports the first file whose id is already taken", () => {
    const t = (fileName: string): Task => ({
      fileName,
      id: stepIdOf(fileName),
      title: "",
      parallel: false,
      description: "",
      criteria: [],
    });
    expect(findIdCollision([t("01-a.md"), t("01_b.md"), t("01_a.md"), t("01 A.md")])).toBe(
      "Step ID collision: 't01_a' from '01_a.md' conflicts with '01-a.md'. Rename one of the files to produce a distinct step ID.",
    );
    expect(findIdCollision([t("a.md"), t("b.md")])).toBeNull();
  });
});

describe("dependencies", () => {
  const deps = (spec: string): string[][] =>
    dependencies(spec.split(" ").map((s) => ({ id: s.replace("*", ""), parallel: s.endsWith("*") })));

  it("follows the documented example: T1, T2a[P], T2b[P], T3, T4", () => {
    expect(deps("T1 T2a* T2b* T3 T4")).toEqual([[], ["T1"], ["T1"], ["T2a", "T2b"], ["T3"]]);
  });

  it("parallel tasks before any sequential task depend on nothing", () => {
    expect(deps("A* B* C D*")).toEqual([[], [], ["A", "B"], ["C"]]);
  });

  it("a sequential task closes the group; the next group starts fresh", () => {
    expect(deps("A B* C D* E* F")).toEqual([[], ["A"], ["B"], ["C"], ["C"], ["D", "E"]]);
  });

  it("a single task and only-parallel tasks", () => {
    expect(deps("A")).toEqual([[]]);
    expect(deps("A* B*")).toEqual([[], []]);
  });
});
