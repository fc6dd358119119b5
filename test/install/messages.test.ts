// What `install` and `uninstall` tell a newcomer: install names every file it writes, the install
// record included (so nothing lands in the home folder unannounced); uninstall names what it
// removed and stays silent about what was never there (a column of "not found" reads as errors).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Sandbox } from "./harness";

let sb: Sandbox;
beforeEach(() => {
  sb = new Sandbox();
});
afterEach(() => sb.dispose());

/** Every file below `dir`, relative to it, folders left out. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** The item names of the progress lines (`  <item>: <outcome>`), notes left out. */
function items(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => /^ {2}\S/.test(line))
    .map((line) => line.slice(2, line.indexOf(": ")));
}

describe("install names every file it writes", () => {
  test("each written file is on a progress line or inside a folder that is", async () => {
    const answer = await sb.cli(["install"]);
    expect(answer.code).toBe(0);
    const named = items(answer.stdout);
    const written = [
      ...filesBelow(sb.project)
        .filter((f) => !f.startsWith(".git/"))
        .map((f) => f.split("\\").join("/")),
      ...filesBelow(sb.home).map((f) => `~/${f.split("\\").join("/")}`),
    ];
    // The install record is one of them: it holds the bytes uninstall gives back.
    expect(written.some((f) => /^~\/\.stratum\/installs\/[0-9a-f]{32}\.json$/.test(f))).toBe(true);
    for (const file of written) {
      // A skill is one line for its folder (~/.claude/skills/<name>: installed).
      const covered = named.some((item) => file === item || file.startsWith(`${item}/`));
      expect(covered, `${file} is written but not named in:\n${answer.stdout}`).toBe(true);
    }
  });

  test("the record's line says what it is for; a second install writes nothing and names nothing new", async () => {
    const first = await sb.cli(["install"]);
    expect(first.stdout).toMatch(
      /\n {2}~\/\.stratum\/installs\/[0-9a-f]{32}\.json: install record written \(what uninstall gives back\)\n/,
    );
    const record = filesBelow(join(sb.home, ".stratum/installs"));
    const before = readFileSync(join(sb.home, ".stratum/installs", record[0] ?? ""), "utf8");
    const second = await sb.cli(["install"]);
    expect(second.stdout).not.toContain("installs/");
    expect(readFileSync(join(sb.home, ".stratum/installs", record[0] ?? ""), "utf8")).toBe(before);
  });
});

describe("uninstall is calm about what is not there", () => {
  test("nothing installed: no 'not found' lines, one line saying there is nothing to remove", async () => {
    const answer = await sb.cli(["uninstall"]);
    expect(answer).toEqual({
      code: 0,
      stdout: "\nNothing to remove: Stratum is not configured here.\n",
      stderr: "",
    });
  });

  test("after install: only what was removed is named, the install record included", async () => {
    await sb.cli(["install"]);
    const answer = await sb.cli(["uninstall"]);
    expect(answer.stdout).not.toMatch(/not found/);
    expect(answer.stdout).toMatch(
      /\n {2}~\/\.stratum\/installs\/[0-9a-f]{32}\.json: install record removed\n/,
    );
    expect(readdirSync(join(sb.home, ".stratum/installs"))).toEqual([]);
  });
});
