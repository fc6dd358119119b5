// `stratumc install` never silently loses or misregisters. Every file install
// and uninstall read gets a hostile value: a wrong JSON type at each place they read or edit (the
// settings `hooks` tree, `.mcp.json`'s servers, ~/.claude.json's projects, the install record), a
// file that cannot be read (a directory, a FIFO, no permission, not UTF-8), a symbolic link out of
// its root. install must stop with exit 1, a message naming the file, the JSON path, what it found
// and what it expected, and every file byte for byte as it was; uninstall keeps every value that is
// not ours. Before the fix, install replaced wrong-typed `hooks` values, reported a non-object
// `stratum` entry as "already present" (exit 0, nothing registered), overwrote a damaged install
// record (losing the original bytes), replaced links by files or wrote through them into the home
// folder, and uninstall dropped foreign hook entries it could not read.
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { recordPath } from "../../install/record";
import { BUNDLE, ensureBundle } from "../cli/run-cli";
import { Sandbox } from "../install/harness";

const NOTHING = "Nothing was changed; fix or move the file and run the command again.";
const MOVE =
  "Nothing was changed; replace the link by the file itself, or move it, and run the command again.";
const isRoot = process.getuid?.() === 0;

let sb: Sandbox;
beforeEach(() => {
  sb = new Sandbox();
});
afterEach(() => sb.dispose());

/** Every entry under the sandbox (bin aside): files with mode, mtime and bytes; links; FIFOs. */
function snapshot(one = sb): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const rel = relative(one.root, path);
      if (rel === "bin") continue;
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) out[rel] = `-> ${readlinkSync(path)}`;
      else if (stat.isFIFO()) out[rel] = "fifo";
      else if (stat.isDirectory()) {
        out[`${rel}/`] = (stat.mode & 0o7777).toString(8);
        if (stat.mode & 0o400) walk(path);
      } else {
        const bytes = stat.mode & 0o400 ? readFileSync(path).toString("base64") : "(unreadable)";
        out[rel] = `${(stat.mode & 0o7777).toString(8)} ${stat.mtimeMs} ${bytes}`;
      }
    }
  };
  walk(one.root);
  return out;
}

/** Sets every file's mtime in the past, so that a rewrite with the same bytes shows. */
function age(one = sb): void {
  for (const [rel, value] of Object.entries(snapshot(one)))
    if (!rel.endsWith("/") && !value.startsWith("->") && value !== "fifo")
      utimesSync(join(one.root, rel), 1_000_000, 1_000_000);
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const ours = (script: string) => `bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/${script}`;
const oursGroup = (script: string) => ({ matcher: "", hooks: [{ type: "command", command: ours(script) }] });
const group = (command: unknown) => ({ matcher: "", hooks: [{ type: "command", command }] });

/** The install record of the sandbox's project, under the default STRATUM_HOME (~/.stratum). */
const recordFile = (one = sb) => recordPath(join(one.home, ".stratum", "installs"), one.project);
const recordShown = (one = sb) =>
  `~/.stratum/installs/${relative(dirname(recordFile(one)), recordFile(one))}`;

interface Refusal {
  readonly name: string;
  readonly command?: "install" | "uninstall";
  /** Sets the hostile input up (after a CLAUDE.md and a settings.json of the user's own). */
  readonly setup: () => void;
  /** The message after `stratumc: `. */
  readonly message: () => string;
  /** Registration in ~/.claude.json (stratum-mcp not on PATH). */
  readonly local?: boolean;
  readonly skip?: string | false;
}

const settings = (value: unknown) => () => sb.write(".claude/settings.json", json(value));
const mcp = (value: unknown) => () => sb.write(".mcp.json", json(value));
const claudeJson = (value: () => unknown) => () => writeFileSync(sb.claudeJson, json(value()));
const record = (value: () => unknown) => () => {
  mkdirSync(dirname(recordFile()), { recursive: true });
  writeFileSync(recordFile(), typeof value() === "string" ? String(value()) : json(value()));
};
const wrong = (file: string, path: string, found: string, expected: string) => () =>
  `${file}: ${path} is ${found}, expected ${expected}. ${NOTHING}`;
const S = ".claude/settings.json";
const GROUP = 'an object (a matcher group: {"matcher": …, "hooks": [ … ]})';
const validRecord = () => ({ version: 1, project: sb.project, files: {}, folders: [] });

const REFUSED: readonly Refusal[] = [
  // .claude/settings.json: the whole `hooks` tree (Claude Code skips a file with an invalid one).
  ...[
    ['"x"', "x", 'a string ("x")'],
    ["[]", [], "an array"],
    ["null", null, "null"],
    ["7", 7, "the number 7"],
  ].map(([label, value, found]) => ({
    name: `settings.json "hooks": ${label}`,
    setup: settings({ model: "opus", hooks: value }),
    message: wrong(S, "hooks", String(found), "an object (event name → matcher groups)"),
  })),
  {
    name: "settings.json hooks.SessionStart (one of our events) is a string",
    setup: settings({ hooks: { SessionStart: "x" } }),
    message: wrong(S, "hooks.SessionStart", 'a string ("x")', "an array (of matcher groups)"),
  },
  {
    name: "settings.json hooks.PreToolUse (not ours) is a string",
    setup: settings({ hooks: { PreToolUse: "x" } }),
    message: wrong(S, "hooks.PreToolUse", 'a string ("x")', "an array (of matcher groups)"),
  },
  {
    name: "settings.json hooks.Stop is an object",
    setup: settings({ hooks: { Stop: { matcher: "" } } }),
    message: wrong(S, "hooks.Stop", "an object", "an array (of matcher groups)"),
  },
  {
    name: "a matcher group that is not an object",
    setup: settings({ hooks: { Stop: [oursGroup("stratum-session-stop.sh"), 42] } }),
    message: wrong(S, "hooks.Stop[1]", "the number 42", GROUP),
  },
  {
    name: "a matcher that is not a string",
    setup: settings({ hooks: { Stop: [{ matcher: ["Bash"], hooks: [] }] } }),
    message: wrong(S, "hooks.Stop[0].matcher", "an array", "a string"),
  },
  {
    name: "a group's hooks that is not an array",
    setup: settings({ hooks: { SessionStart: [{ matcher: "", hooks: "echo hi" }] } }),
    message: wrong(S, "hooks.SessionStart[0].hooks", 'a string ("echo hi")', "an array (of hooks)"),
  },
  {
    name: "a hook that is not an object",
    setup: settings({ hooks: { PostToolUseFailure: [{ matcher: "", hooks: [null] }] } }),
    message: wrong(
      S,
      "hooks.PostToolUseFailure[0].hooks[0]",
      "null",
      'an object (a hook: {"type": …, "command": …})',
    ),
  },
  {
    name: "a hook command that is not a string",
    setup: settings({ hooks: { Stop: [group(5)] } }),
    message: wrong(S, "hooks.Stop[0].hooks[0].command", "the number 5", "a string"),
  },
  {
    name: "an old-format entry (no hooks list) that is not ours",
    setup: settings({ hooks: { Stop: [{ type: "command", command: "echo mine" }] } }),
    message: wrong(S, "hooks.Stop[0].hooks", "missing", "an array (of hooks)"),
  },
  // .mcp.json
  {
    name: ".mcp.json mcpServers is a string",
    setup: mcp({ mcpServers: "stratum" }),
    message: wrong(".mcp.json", "mcpServers", 'a string ("stratum")', "an object (server name → server)"),
  },
  {
    name: ".mcp.json mcpServers.stratum is a string (was: 'already present', exit 0)",
    setup: mcp({ mcpServers: { stratum: "stratum-mcp" } }),
    message: wrong(
      ".mcp.json",
      "mcpServers.stratum",
      'a string ("stratum-mcp")',
      'an object (a server: {"command": …})',
    ),
  },
  {
    name: ".mcp.json mcpServers.stratum is null",
    setup: mcp({ mcpServers: { stratum: null } }),
    message: wrong(".mcp.json", "mcpServers.stratum", "null", 'an object (a server: {"command": …})'),
  },
  // ~/.claude.json (local scope)
  {
    name: "~/.claude.json projects is an array",
    local: true,
    setup: claudeJson(() => ({ projects: [] })),
    message: wrong("~/.claude.json", "projects", "an array", "an object (project path → settings)"),
  },
  {
    name: "~/.claude.json projects[<root>] is a string",
    local: true,
    setup: claudeJson(() => ({ projects: { [sb.project]: "x" } })),
    message: () =>
      wrong(
        `~/.claude.json`,
        `projects[${JSON.stringify(sb.project)}]`,
        'a string ("x")',
        "an object (the project's settings)",
      )(),
  },
  {
    name: "~/.claude.json projects[<root>].mcpServers is a number",
    local: true,
    setup: claudeJson(() => ({ projects: { [sb.project]: { mcpServers: 5 } } })),
    message: () =>
      wrong(
        "~/.claude.json",
        `projects[${JSON.stringify(sb.project)}].mcpServers`,
        "the number 5",
        "an object (server name → server)",
      )(),
  },
  {
    name: "~/.claude.json …mcpServers.stratum is true (was: 'already present', exit 0)",
    local: true,
    setup: claudeJson(() => ({ projects: { [sb.project]: { mcpServers: { stratum: true } } } })),
    message: () =>
      wrong(
        "~/.claude.json",
        `projects[${JSON.stringify(sb.project)}].mcpServers.stratum`,
        "true",
        'an object (a server: {"command": …})',
      )(),
  },
  // The install record (it holds the only copy of the original bytes).
  {
    name: "install record: not JSON (was: overwritten)",
    setup: record(() => "{ not json"),
    message: () =>
      `${recordShown()} is not valid JSON: expected property name or '}' at line 1, column 3. ${NOTHING}`,
  },
  {
    name: "install record: files is an array",
    setup: record(() => ({ ...validRecord(), files: [] })),
    message: () => wrong(recordShown(), "files", "an array", "an object (file → what it held)")(),
  },
  {
    name: "install record: an entry's before is a number",
    setup: record(() => ({ ...validRecord(), files: { "/x": { before: 1, mode: null, after: null } } })),
    message: () => wrong(recordShown(), 'files["/x"].before', "the number 1", "base64 text or null")(),
  },
  {
    name: "install record: another project's",
    setup: record(() => ({ ...validRecord(), project: "/elsewhere" })),
    message: () =>
      wrong(
        recordShown(),
        "project",
        'a string ("/elsewhere")',
        `${JSON.stringify(sb.project)} (this project)`,
      )(),
  },
  {
    name: "install record: a newer version",
    setup: record(() => ({ ...validRecord(), version: 2 })),
    message: () => wrong(recordShown(), "version", "the number 2", "1 (an install record of this version)")(),
  },
  {
    name: "uninstall: install record not an object (was: deleted with the original bytes)",
    command: "uninstall",
    setup: record(() => "[]"),
    message: () => `${recordShown()} does not hold a JSON object at the top. ${NOTHING}`,
  },
  // Files that cannot be read.
  {
    name: ".mcp.json is a directory",
    setup: () => mkdirSync(join(sb.project, ".mcp.json")),
    message: () => `cannot read .mcp.json: is a directory. ${NOTHING}`,
  },
  {
    name: "settings.json is a FIFO",
    setup: () => {
      mkdirSync(join(sb.project, ".claude"), { recursive: true });
      execFileSync("mkfifo", [join(sb.project, S)]);
    },
    message: () => `cannot read ${S}: not a regular file (a FIFO). ${NOTHING}`,
  },
  {
    name: "~/.claude.json is a directory",
    local: true,
    setup: () => mkdirSync(sb.claudeJson),
    message: () => `cannot read ~/.claude.json: is a directory. ${NOTHING}`,
  },
  {
    name: "the install record is a directory",
    setup: () => mkdirSync(recordFile(), { recursive: true }),
    message: () => `cannot read ${recordShown()}: is a directory. ${NOTHING}`,
  },
  {
    name: "settings.json cannot be read (chmod 000)",
    skip: isRoot && "root reads a file whatever its mode",
    setup: () => {
      sb.write(S, "{}");
      chmodSync(join(sb.project, S), 0o000);
    },
    message: () => `cannot read ${S}: EACCES: permission denied, open '${join(sb.project, S)}'. ${NOTHING}`,
  },
  {
    name: "settings.json is not UTF-8",
    setup: () => {
      sb.write(S, "");
      writeFileSync(join(sb.project, S), Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])); // {"\xff":1}
    },
    message: () => `${S} is not UTF-8 text. ${NOTHING}`,
  },
  // Links out of their root.
  {
    name: "settings.json is a link to the user's global settings (was: replaced by a file)",
    setup: () => {
      mkdirSync(join(sb.home, ".claude"), { recursive: true });
      writeFileSync(join(sb.home, ".claude/settings.json"), json({ model: "global" }));
      mkdirSync(join(sb.project, ".claude"), { recursive: true });
      symlinkSync(join(sb.home, ".claude/settings.json"), join(sb.project, S));
    },
    message: () =>
      `${S} leads outside ${sb.project} through a symbolic link (to ${join(sb.home, ".claude/settings.json")}); ` +
      `install and uninstall write only inside the project, the home folder and STRATUM_HOME. ${NOTHING}`,
  },
  {
    name: "the .claude folder is a link to ~/.claude (was: hooks written into the home folder)",
    setup: () => {
      mkdirSync(join(sb.home, ".claude"), { recursive: true });
      symlinkSync(join(sb.home, ".claude"), join(sb.project, ".claude"));
    },
    message: () =>
      `.claude/hooks/stratum-session-start.sh leads outside ${sb.project} through a symbolic link (to ` +
      `${join(sb.home, ".claude/hooks/stratum-session-start.sh")}); install and uninstall write only inside ` +
      `the project, the home folder and STRATUM_HOME. ${NOTHING}`,
  },
  {
    name: ".mcp.json is a link to a missing file",
    setup: () => symlinkSync("nowhere.json", join(sb.project, ".mcp.json")),
    message: () => `.mcp.json is a symbolic link to a missing file (nowhere.json). ${MOVE}`,
  },
  {
    name: "uninstall would delete a .mcp.json that is a link (its target would keep our server)",
    command: "uninstall",
    setup: () => {
      sb.write("config/mcp.json", json({ mcpServers: { stratum: { command: "stratum-mcp" } } }));
      symlinkSync("config/mcp.json", join(sb.project, ".mcp.json"));
    },
    message: () => `.mcp.json is a symbolic link (to config/mcp.json) and would have to be deleted. ${MOVE}`,
  },
];

describe("hostile inputs stop install and uninstall with nothing changed", () => {
  for (const row of REFUSED)
    test.skipIf(row.skip !== undefined && row.skip !== false)(row.name, async () => {
      if (row.local === true) sb.env = { PATH: "" };
      sb.write("CLAUDE.md", "# Mine\n");
      if (!row.name.startsWith("settings.json")) sb.write("docs/keep.txt", "kept\n");
      row.setup();
      age();
      const before = snapshot();
      const answer = await sb.cli([row.command ?? "install"]);
      expect(answer.stderr).toBe(`stratumc: ${row.message()}\n`);
      expect(answer).toMatchObject({ code: 1, stdout: "" });
      expect(snapshot()).toEqual(before);
    });
});

describe("values that are not ours are kept, byte for byte where nothing of ours is", () => {
  test("uninstall keeps foreign hook entries of any shape (was: dropped)", async () => {
    const foreign = [42, { type: "command", command: "echo mine" }, { matcher: "", hooks: "x" }];
    sb.write(
      S,
      json({
        hooks: { Stop: [...foreign, oursGroup("stratum-session-stop.sh")], PreToolUse: "odd" },
        model: "x",
      }),
    );
    const answer = await sb.cli(["uninstall"]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain(`  ${S}: hook entries removed\n`);
    expect(sb.json(S)).toEqual({ hooks: { Stop: foreign, PreToolUse: "odd" }, model: "x" });
  });

  test("uninstall keeps a `stratum` value that is not a server, and wrong-typed `hooks` (was: deleted)", async () => {
    const text = json({ mcpServers: { stratum: "mine", gh: { command: "gh" } } });
    sb.write(".mcp.json", text);
    sb.write(S, json({ hooks: "x" }));
    writeFileSync(sb.claudeJson, json({ projects: { [sb.project]: { mcpServers: { stratum: 1 } } } }));
    age();
    const before = snapshot();
    const answer = await sb.cli(["uninstall"]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toContain("  .mcp.json: stratum server not present\n");
    expect(answer.stdout).toContain(`  ${S}: no hook entries\n`);
    expect(snapshot()).toEqual(before);
  });

  test("install leaves wrong-typed hooks in settings.local.json alone (it registers nothing there)", async () => {
    sb.write(".claude/settings.local.json", json({ hooks: "mine" }));
    const answer = await sb.cli(["install"]);
    expect(answer.code).toBe(0);
    expect(sb.read(".claude/settings.local.json")).toBe(json({ hooks: "mine" }));
  });

  test("old-format entries of ours are removed by install; the file then registers cleanly", async () => {
    sb.write(
      S,
      json({ hooks: { Stop: [{ type: "command", command: "bash .claude/hooks/stratum-session-stop.sh" }] } }),
    );
    expect((await sb.cli(["install"])).code).toBe(0);
    expect(sb.json(S)).toEqual({
      hooks: {
        Stop: [oursGroup("stratum-session-stop.sh")],
        SessionStart: [oursGroup("stratum-session-start.sh")],
        PostToolUseFailure: [oursGroup("stratum-post-tool-failure.sh")],
      },
    });
  });

  test("a link inside the project (CLAUDE.md → AGENTS.md) is edited at its target and survives", async () => {
    sb.write("AGENTS.md", "# Agents\n");
    symlinkSync("AGENTS.md", join(sb.project, "CLAUDE.md"));
    expect((await sb.cli(["install"])).code).toBe(0);
    expect(readlinkSync(join(sb.project, "CLAUDE.md"))).toBe("AGENTS.md");
    expect(sb.read("AGENTS.md")).toContain("# Agents\n");
    expect(sb.read("AGENTS.md")).not.toBe("# Agents\n");
    expect((await sb.cli(["uninstall"])).code).toBe(0);
    expect(readlinkSync(join(sb.project, "CLAUDE.md"))).toBe("AGENTS.md");
    expect(sb.read("AGENTS.md")).toBe("# Agents\n");
  });
});

describe("the built CLI", () => {
  test("exit 1 and the message from the real binary; nothing written", () => {
    ensureBundle();
    sb.write(S, json({ hooks: { Stop: "x" } }));
    age();
    const before = snapshot();
    const r = spawnSync(process.execPath, [BUNDLE, "install"], {
      cwd: sb.project,
      env: { HOME: sb.home, PATH: sb.bin },
      encoding: "utf8",
    });
    expect(r.stderr).toBe(
      `stratumc: ${S}: hooks.Stop is a string ("x"), expected an array (of matcher groups). ${NOTHING}\n`,
    );
    expect(r.status).toBe(1);
    expect(snapshot()).toEqual(before);
  });
});

// The property: any JSON value put at any place of valid files install reads (the values there,
// and the places our entries go). install either refuses (exit 1, the "Nothing was changed"
// sentence, every file as it was), or succeeds, a second install has nothing to change (the
// registration it reported is really there), and uninstall gives back every byte.
type Path = readonly (string | number)[];

function placesIn(value: unknown, at: Path = []): Path[] {
  const here: Path[] = at.length === 0 ? [] : [at];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => placesIn(v, [...at, i]))];
  if (typeof value === "object" && value !== null)
    return [...here, ...Object.entries(value).flatMap(([k, v]) => placesIn(v, [...at, k]))];
  return here;
}

function putAt(value: unknown, at: Path, replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const [head, ...rest] = at;
  if (Array.isArray(value) && typeof head === "number")
    return value.map((v, i) => (i === head ? putAt(v, rest, replacement) : v));
  const object = typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  const inner = Object.hasOwn(object, String(head)) ? (object as Record<string, unknown>)[String(head)] : {};
  return { ...object, [String(head)]: putAt(inner, rest, replacement) };
}

interface Layout {
  readonly file: (one: Sandbox) => string;
  readonly base: (one: Sandbox) => unknown;
  /** Places our entries go (absent in the base). */
  readonly extra: (one: Sandbox) => Path[];
}

const LAYOUTS: readonly Layout[] = [
  {
    file: (one) => join(one.project, S),
    base: () => ({
      model: "opus",
      hooks: {
        SessionStart: [group("echo a")],
        Stop: [oursGroup("stratum-session-stop.sh")],
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "make lint", timeout: 5 }] }],
      },
    }),
    extra: () => [
      ["hooks", "PostToolUseFailure"],
      ["hooks", "Stop", 1],
      ["hooks", "SessionStart", 0, "hooks", 1],
    ],
  },
  {
    file: (one) => join(one.project, ".claude/settings.local.json"),
    base: () => ({ hooks: { Stop: [group(`bash /old/.stratum/hooks/stratum-session-stop.sh`)] } }),
    extra: () => [],
  },
  {
    file: (one) => join(one.project, ".mcp.json"),
    base: () => ({ mcpServers: { gh: { command: "gh" } } }),
    extra: () => [["mcpServers", "stratum"]],
  },
  {
    file: (one) => one.claudeJson,
    base: (one) => ({
      numStartups: 1,
      projects: { [one.project]: { mcpServers: { db: { command: "db" } } } },
    }),
    extra: (one) => [["projects", one.project, "mcpServers", "stratum"]],
  },
];

describe("property: a random value anywhere never loses or misregisters", () => {
  test("install refuses with nothing changed, or succeeds, reports truly and uninstall restores", async () => {
    const substitution = fc
      .tuple(fc.nat(LAYOUTS.length - 1), fc.nat(), fc.jsonValue({ maxDepth: 2 }), fc.boolean())
      .map(([layout, place, value, onPath]) => ({ layout, place, value, onPath }));
    await fc.assert(
      fc.asyncProperty(substitution, async ({ layout, place, value, onPath }) => {
        const one = new Sandbox();
        try {
          if (!onPath) one.env = { PATH: "" };
          for (const l of LAYOUTS) {
            mkdirSync(dirname(l.file(one)), { recursive: true });
            writeFileSync(l.file(one), json(l.base(one)));
          }
          const chosen = LAYOUTS[layout] as Layout;
          const base = chosen.base(one);
          const places = [...placesIn(base), ...chosen.extra(one)];
          const at = places[place % places.length] as Path;
          // A `stratum` server someone else wrote is Stratum's registration: uninstall removes it.
          const server = typeof value === "object" && value !== null && !Array.isArray(value);
          fc.pre(!(at[at.length - 1] === "stratum" && server));
          writeFileSync(chosen.file(one), json(putAt(base, at, value)));
          age(one);
          const before = snapshot(one);
          const first = await one.cli(["install"]);
          if (first.code !== 0) {
            expect(first.code).toBe(1);
            expect(first.stderr).toMatch(new RegExp(`^stratumc: .* ${NOTHING.replace(/[.;]/g, "\\$&")}\\n$`));
            expect(snapshot(one)).toEqual(before);
            return;
          }
          const second = await one.cli(["install"]);
          expect(second.code).toBe(0);
          expect(second.stdout).toMatch(/\nNothing to change: Stratum is already configured\.\n$/);
          expect((await one.cli(["uninstall"])).code).toBe(0);
          const noTimes = (s: Record<string, string>) =>
            Object.fromEntries(
              Object.entries(s)
                .filter(([k]) => !k.startsWith("home/.stratum"))
                .map(([k, v]) => [k, v.replace(/ [0-9.]+ /, " ")]),
            );
          expect(noTimes(snapshot(one))).toEqual(noTimes(before));
        } finally {
          one.dispose();
        }
      }),
      { numRuns: 60 },
    );
  });
});
