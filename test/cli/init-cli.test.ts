// `stratumc init` end to end (a fresh directory, existing files merged with their comments kept,
// an invalid file refused with nothing written, idempotence) and the schema's stable `$id`, with
// the published copy `schema/stratum.schema.json` kept equal to `stratumc schema`
// (scripts/gen-docs.mjs writes it: `npm run check:generated -- --write`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SPEC_SCHEMA_ID, specJsonSchema } from "../../checker/schema/json-schema";
import { VERSION } from "../../cli/version";
import { ensureBundle, REPO, stratumc } from "./run-cli";

let base = "";
let n = 0;

beforeAll(() => {
  ensureBundle();
  base = mkdtempSync(join(tmpdir(), "stratumc-init-"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function project(files: Record<string, string> = {}): string {
  const dir = join(base, `p${n++}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const read = (dir: string, name: string) => readFileSync(join(dir, name), "utf8");
const SCHEMA_TEXT = `${JSON.stringify(specJsonSchema(), null, 2)}\n`;
const ENTRY = `- repo: https://github.com/stratumc/stratumc\n    rev: v${VERSION}\n    hooks:\n      - id: stratumc-check\n`;

describe("init", () => {
  it("sets up a fresh directory: a clean starter spec with the modeline, schema, pre-commit, VS Code", () => {
    const dir = project();
    const r = stratumc(["init"], { cwd: dir });
    expect(r).toEqual({
      status: 0,
      stderr: "",
      stdout: [
        "plan.stratum.yaml: created (a starter spec)",
        ".stratum/spec.schema.json: created (stratumc schema)",
        ".pre-commit-config.yaml: created",
        ".vscode/settings.json: created (yaml.schemas)",
        "",
      ].join("\n"),
    });
    const spec = read(dir, "plan.stratum.yaml");
    expect(spec.split("\n")[0]).toBe("# yaml-language-server: $schema=./.stratum/spec.schema.json");
    expect(stratumc(["check", "plan.stratum.yaml"], { cwd: dir })).toMatchObject({
      status: 0,
      stdout: "0 error(s), 0 warning(s) in 1 file(s)\n",
    });
    expect(read(dir, ".stratum/spec.schema.json")).toBe(SCHEMA_TEXT);
    expect(read(dir, ".pre-commit-config.yaml")).toContain(`repos:\n  ${ENTRY}`);
    expect(parse(read(dir, ".pre-commit-config.yaml"))).toEqual({
      repos: [
        {
          repo: "https://github.com/stratumc/stratumc",
          rev: `v${VERSION}`,
          hooks: [{ id: "stratumc-check" }],
        },
      ],
    });
    expect(JSON.parse(read(dir, ".vscode/settings.json"))).toEqual({
      "yaml.schemas": { "./.stratum/spec.schema.json": ["**/*.stratum.yaml", "**/*.stratum.yml"] },
    });
  });

  it("writes a starter spec our own fuzzer finds nothing in: check --deep and fuzz on several seeds, through bin/", () => {
    // The built launcher as a program, as `npx stratumc` runs it, in a project with only what init wrote.
    const dir = project();
    const bin = (args: string[]) => {
      const r = spawnSync(join(REPO, "bin/stratumc.cjs"), args, {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", HOME: dir },
      });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    expect(bin(["init"]).status).toBe(0);
    expect(bin(["check", "--deep"])).toEqual({
      status: 0,
      stdout: "0 error(s), 0 warning(s) in 1 file(s)\n",
      stderr: "",
    });
    for (const seed of ["1", "7", "36"]) {
      const r = bin(["fuzz", "--seed", seed, "--format", "json", "plan.stratum.yaml"]);
      expect({ seed, status: r.status }).toEqual({ seed, status: 0 });
      expect({ seed, findings: JSON.parse(r.stdout).files[0].findings }).toEqual({ seed, findings: [] });
    }
  });

  it("is idempotent: a second run changes nothing and says so", () => {
    const dir = project();
    stratumc(["init", dir]);
    const before = [
      "plan.stratum.yaml",
      ".stratum/spec.schema.json",
      ".pre-commit-config.yaml",
      ".vscode/settings.json",
    ].map((f) => read(dir, f));
    const r = stratumc(["init"], { cwd: dir });
    expect(r.stdout).toBe(
      [
        "plan.stratum.yaml: exists, left alone",
        ".stratum/spec.schema.json: up to date",
        ".pre-commit-config.yaml: stratumc-check hook already present",
        ".vscode/settings.json: schema association already present",
        "",
      ].join("\n"),
    );
    expect(
      [
        "plan.stratum.yaml",
        ".stratum/spec.schema.json",
        ".pre-commit-config.yaml",
        ".vscode/settings.json",
      ].map((f) => read(dir, f)),
    ).toEqual(before);
  });

  it("appends to an existing pre-commit config and settings.json, keeping comments and layout", () => {
    const preCommit = [
      "# our hooks",
      "repos:",
      "-   repo: https://github.com/pre-commit/pre-commit-hooks",
      "    rev: v4.6.0  # pinned",
      "    hooks:",
      "    -   id: trailing-whitespace",
      "# the end",
      "",
    ].join("\n");
    const settings =
      '{\n  // editor\n  "editor.tabSize": 2, /* two */\n  "yaml.schemas": {\n    "other.json": "x.yaml" // theirs\n  },\n}\n';
    const dir = project({ ".pre-commit-config.yaml": preCommit, ".vscode/settings.json": settings });
    const r = stratumc(["init", "."], { cwd: dir });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(".pre-commit-config.yaml: stratumc-check hook added\n");
    expect(r.stdout).toContain(".vscode/settings.json: schema association added to yaml.schemas\n");
    expect(read(dir, ".pre-commit-config.yaml")).toBe(
      preCommit.replace(
        "# the end",
        `-   repo: https://github.com/stratumc/stratumc\n    rev: v${VERSION}\n    hooks:\n    -   id: stratumc-check\n# the end`,
      ),
    );
    expect(read(dir, ".vscode/settings.json")).toBe(
      settings.replace(
        '"x.yaml" // theirs\n',
        '"x.yaml", // theirs\n    "./.stratum/spec.schema.json": [\n      "**/*.stratum.yaml",\n      "**/*.stratum.yml"\n    ]\n',
      ),
    );
  });

  it("adds the hook to a config without it even when the layout is unusual (Document API)", () => {
    const preCommit =
      "# top\nrepos: [{repo: local, hooks: [{id: mine, name: m, entry: m, language: system}]}]  # flow\n";
    const dir = project({ ".pre-commit-config.yaml": preCommit });
    expect(stratumc(["init"], { cwd: dir }).status).toBe(0);
    const text = read(dir, ".pre-commit-config.yaml");
    expect(text.startsWith("# top\n")).toBe(true);
    expect(text).toContain("# flow");
    expect((parse(text) as { repos: unknown[] }).repos).toHaveLength(2);
    expect(stratumc(["init"], { cwd: dir }).stdout).toContain("stratumc-check hook already present");
  });

  it("refuses an invalid settings.json with its location and writes nothing anywhere", () => {
    const bad = '{\n  "editor.tabSize": 2\n  "files.eol": "\\n"\n}\n';
    const dir = project({ ".vscode/settings.json": bad });
    const r = stratumc(["init"], { cwd: dir });
    expect(r).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "stratumc: init: nothing written:\n  .vscode/settings.json:3:3: not valid JSON (expected ',' or '}')\n",
    });
    expect(read(dir, ".vscode/settings.json")).toBe(bad);
    for (const f of ["plan.stratum.yaml", ".stratum", ".pre-commit-config.yaml"])
      expect(existsSync(join(dir, f))).toBe(false);
  });

  it("refuses a pre-commit config that is not valid YAML or whose repos is not a list", () => {
    const dir = project({ ".pre-commit-config.yaml": "repos: {a: 1}\n" });
    const r = stratumc(["init"], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(".pre-commit-config.yaml:1:8: 'repos' is not a list");
    expect(existsSync(join(dir, "plan.stratum.yaml"))).toBe(false);
    const broken = project({ ".pre-commit-config.yaml": "repos:\n  - [\n" });
    expect(stratumc(["init"], { cwd: broken }).stderr).toMatch(
      /\.pre-commit-config\.yaml:\d+:\d+: not valid YAML/,
    );
  });

  it("never overwrites an existing starter spec", () => {
    const dir = project({ "plan.stratum.yaml": "mine\n" });
    expect(stratumc(["init"], { cwd: dir }).stdout).toContain("plan.stratum.yaml: exists, left alone\n");
    expect(read(dir, "plan.stratum.yaml")).toBe("mine\n");
  });
});

describe("schema $id", () => {
  it("has a stable $id and the published copy equals `stratumc schema`", () => {
    const r = stratumc(["schema"]);
    expect(JSON.parse(r.stdout).$id).toBe(SPEC_SCHEMA_ID);
    expect(SPEC_SCHEMA_ID).toBe(
      "https://raw.githubusercontent.com/stratumc/stratumc/main/schema/stratum.schema.json",
    );
    const published = join(REPO, "schema/stratum.schema.json");
    expect(readFileSync(published, "utf8")).toBe(SCHEMA_TEXT);
  });
});
