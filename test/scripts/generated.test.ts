// Every generated file is what its generator in scripts/ writes now: the check itself,
// run as CI runs it, and proof that it catches a stale file and a python3 other than 3.11.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compareOutputs, GENERATORS } from "../../scripts/check-generated.mjs";
import { fillMarkers, GENERATED_PAGES, MARKED_PAGES } from "../../scripts/gen-docs.mjs";

const ROOT = join(import.meta.dirname, "../..");
/** The files of outputs that are folders, listed recursively. */
const compareFiles = (outputs: readonly string[]): string[] =>
  outputs.flatMap((rel) =>
    statSync(join(ROOT, rel)).isDirectory()
      ? readdirSync(join(ROOT, rel), { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(".ts"))
          .map((f) => join(rel, f))
      : [rel],
  );
const CHECK = join(ROOT, "scripts/check-generated.mjs");
const temps: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), "generated-test-"));
  temps.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("scripts/check-generated.mjs", () => {
  it("finds every generated file up to date", () => {
    const run = spawnSync(process.execPath, [CHECK], { cwd: ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("names the file and the first line that differ from the generator's output", () => {
    const rel = "test/stdlib/values/tables/misc.ts";
    const committed = temp();
    cpSync(join(ROOT, rel), join(committed, rel));
    const lines = readFileSync(join(committed, rel), "utf8").split("\n");
    lines[9] = `${lines[9]} // edited by hand`;
    writeFileSync(join(committed, rel), lines.join("\n"));
    const [problem, ...rest] = compareOutputs([rel], ROOT, committed);
    expect(rest).toEqual([]);
    expect(problem).toContain(`--- ${rel} (committed)`);
    expect(problem).toContain("@@ line 10 @@");
    expect(problem).toContain("// edited by hand");
  });

  it("reports generated files that are missing or extra", () => {
    const committed = temp();
    cpSync(join(ROOT, "install/generated"), join(committed, "install/generated"), {
      recursive: true,
    });
    rmSync(join(committed, "install/generated/skills.ts"));
    writeFileSync(join(committed, "install/generated/old.ts"), "");
    expect(compareOutputs(["install/generated"], ROOT, committed).sort()).toEqual([
      "install/generated/old.ts: committed but no longer generated",
      "install/generated/skills.ts: generated but not committed",
    ]);
  });

  it("fails, saying why, when python3 is not CPython 3.11", () => {
    const bin = temp();
    writeFileSync(join(bin, "python3"), "#!/bin/sh\necho 'Python 3.12.4'\n");
    chmodSync(join(bin, "python3"), 0o755);
    const run = spawnSync(process.execPath, [CHECK], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Python 3.12.4 found: the CPython generators need CPython 3.11.x");
  });

  it("starts every generated file with a header naming its generator in scripts/", () => {
    // The docs generator writes pages whose first line is their title, and numbers inside
    // hand-written pages: checked below.
    for (const { script, outputs } of GENERATORS.filter((g) => g.script !== "scripts/gen-docs.mjs")) {
      expect(script).toMatch(/^scripts\/gen-[a-z0-9-]+\.(py|mjs)$/);
      for (const rel of compareFiles(outputs)) {
        const first = readFileSync(join(ROOT, rel), "utf8").split("\n", 1)[0];
        expect(first, rel).toContain(script);
        expect(first, rel).toMatch(/do not edit/);
      }
    }
  });
});

describe("scripts/gen-docs.mjs", () => {
  it("is one of the generators the check runs, with every page it writes", () => {
    const docs = GENERATORS.find((g) => g.script === "scripts/gen-docs.mjs");
    expect(docs?.outputs).toEqual([...GENERATED_PAGES, ...MARKED_PAGES]);
  });

  it("names itself near the top of every Markdown page it writes whole", () => {
    for (const rel of GENERATED_PAGES.filter((p) => p.endsWith(".md"))) {
      const top = readFileSync(join(ROOT, rel), "utf8").split("\n").slice(0, 5).join("\n");
      expect(top, rel).toContain("scripts/gen-docs.mjs");
      expect(top, rel).toContain("Do not edit by hand");
    }
  });

  it("has a generated number in every page it fills, and only there", () => {
    for (const rel of MARKED_PAGES)
      expect(readFileSync(join(ROOT, rel), "utf8"), rel).toMatch(/<!-- generated:/);
  });

  it("replaces the value of every marker, and refuses a name it has no value for", () => {
    const text =
      "<!-- generated:tool-count -->16<!-- /generated --> tools, <!-- generated:x -->1<!-- /generated -->";
    expect(fillMarkers(text, { "tool-count": 21, x: 2 })).toBe(
      "<!-- generated:tool-count -->21<!-- /generated --> tools, <!-- generated:x -->2<!-- /generated -->",
    );
    expect(() => fillMarkers(text, { x: 2 }, "README.md")).toThrow(
      'README.md: no generated value named "tool-count"',
    );
  });

  it("catches a count typed by hand: a wrong number in a marker is a stale file", () => {
    const committed = temp();
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const typed = readme.replace(/(<!-- generated:tool-count -->)\d+/, "$116");
    expect(typed).not.toBe(readme);
    writeFileSync(join(committed, "README.md"), typed);
    const [problem] = compareOutputs(["README.md"], ROOT, committed);
    expect(problem).toContain("--- README.md (committed)");
    const served = /generated:tool-count -->(\d+)/.exec(readme)?.[1];
    expect(problem).toContain(`generated:tool-count -->${served}`);
  });
});
