// The "Try the team store locally" recipe of docs/guides/team-store.md, run as written: its shell
// blocks are read from the page (so the page cannot drift from what works), with a free port for
// 55432 and `npx` standing for the built launchers, as an unprivileged user (`postgres` when the
// tests run as root: initdb refuses root, as the page says). Checked: the recipe's server takes the
// store (tables created on first use, `[]` printed), the README's verify-full URL fails on it with
// the reason the page gives, the owner-creates / DML-only variant works, and the last line leaves
// no server behind.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../../cli/run-cli";

const PAGE = join(REPO, "docs/guides/team-store.md");
const DOC_PORT = "55432";
const havePostgres = existsSync("/usr/lib/postgresql");

/** The fenced `sh` blocks of the page's "Try the team store locally" section, in order. */
function recipeBlocks(): string[] {
  const page = readFileSync(PAGE, "utf8");
  const start = page.indexOf("\n## Try the team store locally\n");
  expect(start, "the section is on the page").toBeGreaterThan(0);
  const next = page.indexOf("\n## ", start + 1);
  const section = page.slice(start, next === -1 ? undefined : next);
  return [...section.matchAll(/\n```sh\n([\s\S]*?)\n```/g)].map((m) => m[1] ?? "");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * A copy of the built launchers (`bin/`, `dist/` without source maps and snapshots) that the
 * unprivileged user can read: the checkout itself may sit in a directory only its owner may enter,
 * as CI's clone in a fresh `mktemp -d` does.
 */
function readableInstall(): string {
  const dir = mkdtempSync(join(tmpdir(), "stratumc-recipe-"));
  chmodSync(dir, 0o755);
  for (const part of ["bin", "dist"]) {
    cpSync(join(REPO, part), join(dir, part), {
      recursive: true,
      filter: (source) => !/\.(map|blob|blob\.nodepath)$/.test(source),
    });
  }
  return dir;
}

/** Runs a bash script as the recipe's reader would: unprivileged, `npx` being the built launchers in `install`. */
function runAsUser(
  install: string,
  script: string,
): { status: number | null; stdout: string; stderr: string } {
  const prelude = [
    "set -euo pipefail",
    // What `npx stratumc …` runs in a project that installed stratumc: its launcher.
    `npx() { local name=$1; shift; node ${JSON.stringify(install)}/bin/"$name".cjs "$@"; }`,
  ].join("\n");
  const asUser = process.getuid?.() === 0 ? ["runuser", "-u", "postgres", "--"] : [];
  const [program, ...args] = [...asUser, "bash", "-s"];
  const env = { ...process.env, HOME: tmpdir(), STRATUM_STORE: undefined, STRATUMC_NO_SNAPSHOT: "1" };
  const r = spawnSync(program ?? "bash", args, {
    input: `${prelude}\n${script}\n`,
    cwd: tmpdir(),
    encoding: "utf8",
    env,
    timeout: 90_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `text` with `from` replaced, failing when the page no longer holds `from`. */
function replaced(text: string, from: string, to: string): string {
  expect(text, `the recipe still holds ${from}`).toContain(from);
  return text.split(from).join(to);
}

describe.skipIf(!havePostgres)("the local team-store recipe of docs/guides/team-store.md", () => {
  let blocks: string[] = [];
  let install = "";
  beforeAll(() => {
    ensureBundle();
    blocks = recipeBlocks();
    install = readableInstall();
  });
  afterAll(() => {
    if (install !== "") rmSync(install, { recursive: true, force: true });
  });

  it("has the recipe, the Docker line and the owner-creates variant", () => {
    expect(blocks).toHaveLength(3);
    expect(blocks[1]).toMatch(/^docker run --rm -d .* postgres:\d+$/);
  });

  it("starts a server, the store creates its tables and lists no flow, verify-full is refused, nothing is left", async () => {
    const port = String(await freePort());
    const recipe = replaced(blocks[0] ?? "", DOC_PORT, port);
    const lines = recipe.split("\n");
    const teardown = lines.pop() ?? "";
    expect(teardown).toMatch(/pg_ctl.* stop .*rm -rf "\$PGDATA"/);
    const verifyFull = `postgres://agent@127.0.0.1:${port}/stratum?sslmode=verify-full`;
    const script = [
      ...lines,
      // The README's URL on the same server: refused, for the reason the page gives.
      `if npx stratumc query flows --store '${verifyFull}' 2>"$PGDATA/verify.err"; then echo "verify-full: connected"; fi`,
      'echo "verify-full: $(cat "$PGDATA/verify.err")"',
      `"$PGBIN/psql" -h 127.0.0.1 -p ${port} -U postgres -d stratum -X -A -t -c 'SELECT version FROM stratum.schema_version'`,
      teardown,
    ].join("\n");
    const r = runAsUser(install, script);
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout.split("\n");
    expect(out[0], r.stdout).toBe("[]");
    expect(out[1]).toMatch(
      /^verify-full: stratumc: cannot reach the flow store at postgres:\/\/agent@127\.0\.0\.1:\d+\/stratum: .*does not support SSL/,
    );
    expect(out[2]).toBe("1");
    expect(await listening(Number(port))).toBe(false);
  }, 120_000);

  it("works for a role that may only read and write, once the owner created the tables", async () => {
    const port = String(await freePort());
    // The recipe without CREATE for the agent, then the page's owner-creates block.
    const recipe = replaced(
      replaced(blocks[0] ?? "", DOC_PORT, port),
      " -c 'GRANT CREATE ON DATABASE stratum TO agent'",
      "",
    );
    const lines = recipe.split("\n");
    const teardown = lines.pop() ?? "";
    const query = lines.findIndex((l) => l.startsWith("npx stratumc query flows"));
    expect(query).toBeGreaterThan(0);
    const script = [
      ...lines.slice(0, query),
      // Before the owner acts, the agent's role may not create the tables: the store says so.
      'if npx stratumc query flows 2>"$PGDATA/denied.err"; then echo "agent: created"; fi',
      'echo "agent: $(cat "$PGDATA/denied.err")"',
      replaced(blocks[2] ?? "", DOC_PORT, port),
      "npx stratumc query flows",
      teardown,
    ].join("\n");
    const r = runAsUser(install, script);
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout.split("\n");
    expect(out[0], r.stdout).toMatch(/^agent: stratumc: .*role "agent" may not create them/);
    expect(out.slice(1, 3)).toEqual(["[]", "[]"]);
    expect(await listening(Number(port))).toBe(false);
  }, 120_000);
});
