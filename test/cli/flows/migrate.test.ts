// `stratumc flows migrate`: file store → PostgreSQL and back over flows made by the engine (journals
// folded in, revisions kept, the source untouched), idempotence, conflicts, corrupt flows, --dry-run,
// the flows folder as a location, and through the built CLI an unreachable database as one line
// without its password. One PostgreSQL server for the file, a fresh database per test.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../../host/file-store/file-store";
import type { FlowStore } from "../../../interpreter/store/store";
import { type PgServer, startPostgres } from "../../support/postgres";
import { REPO } from "../run-cli";
import { flowId, result, SPEC, TestHome } from "./harness";

let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(() => pg?.destroy());

let t: TestHome; // the source home
let back: TestHome; // where flows come back to from the database
let url: string;
beforeEach(() => {
  t = new TestHome();
  back = new TestHome();
  url = pg.createDatabase("migrate");
});
afterEach(() => {
  t.dispose();
  back.dispose();
});

const [DONE, JOURNALED, RUNNING] = [1, 2, 3].map(flowId) as [string, string, string];
const IDS = [DONE, JOURNALED, RUNNING];
const gate = { outcome: "approve", rationale: "", resolved_by: "human" };

/** A complete flow; one at its gate after two step_done calls (journal deltas); one just planned. */
async function threeFlows(): Promise<void> {
  const api = t.api();
  const draft = (id: string, text: string) =>
    api.stepDone({ flow_id: id, step_id: "draft", result: result(`{"text": "${text}"}`) });
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await draft(DONE, "ok");
  await api.gateResolve({ ...gate, flow_id: DONE, step_id: "review" });
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await draft(JOURNALED, "bad"); // fails its ensure: retried
  await draft(JOURNALED, "ok");
  await api.plan({ spec: SPEC, flow: "reviewed" });
  expect(existsSync(t.journalFile(JOURNALED))).toBe(true);
}

const migrate = (args: readonly string[], home = t) => home.cli(["flows", "migrate", ...args]);
const dbName = (u: string) => new URL(u).pathname.slice(1);
const migratedLines = (verb: string) => [
  `${verb} ${DONE} (complete, reviewed)`,
  `${verb} ${JOURNALED} (awaiting_gate, reviewed)`,
  `${verb} ${RUNNING} (running, reviewed)`,
];
const lines = (...l: string[]) => `${l.join("\n")}\n`;

/** Every file of a flows folder with its contents (to see that nothing changed). */
function folder(home: string): Record<string, string> {
  const dir = join(home, "flows");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n), "utf8")]));
}

/** The database's flows: id, snapshot revision, revision, deltas, change token. */
function rows(u: string): string {
  return pg.psql(
    `SELECT f.flow_id, f.snapshot_revision, f.revision,
            (SELECT count(*) FROM stratum.deltas d WHERE d.flow_id = f.flow_id), f.change
       FROM stratum.flows f ORDER BY f.flow_id`,
    dbName(u),
  );
}

async function tokens(store: FlowStore): Promise<(string | null)[]> {
  const all = await Promise.all(IDS.map((id) => store.token(id)));
  await store.close?.();
  return all;
}

describe("flows migrate", () => {
  it("copies a file store into PostgreSQL: one text per flow, revisions kept, the source untouched", async () => {
    await threeFlows();
    const before = folder(t.home);
    expect(await migrate(["--from", t.home, "--to", url])).toEqual({
      code: 0,
      stdout: lines(
        `Migrating the flows of ${t.home} to ${url}`,
        ...migratedLines("migrated"),
        "Migrated 3 flow(s), 0 already there, 0 failed.",
      ),
      stderr: "",
    });
    expect(folder(t.home)).toEqual(before);
    // Journals folded in: no delta rows, the snapshot at the flow's revision (as in the source).
    const source = new FileFlowStore(t.home);
    const revisions = await Promise.all(IDS.map(async (id) => (await source.read(id))?.revision));
    expect(revisions[1]).toBeGreaterThan(2);
    expect(
      rows(url)
        .trim()
        .split("\n")
        .map((r) => r.split("|").slice(0, 4)),
    ).toEqual(IDS.map((id, i) => [id, String(revisions[i]), String(revisions[i]), "0"]));
  });

  it("copies back from PostgreSQL into a directory: `query flow` answers alike", async () => {
    await threeFlows();
    expect((await migrate(["--from", t.home, "--to", url])).code).toBe(0);
    expect(await migrate(["--from", url, "--to", back.home], back)).toEqual({
      code: 0,
      stdout: lines(
        `Migrating the flows of ${url} to ${back.home}`,
        ...migratedLines("migrated"),
        "Migrated 3 flow(s), 0 already there, 0 failed.",
      ),
      stderr: "",
    });
    for (const id of IDS) {
      const there = await back.cli(["query", "flow", id]);
      expect(there.code).toBe(0);
      expect(there).toEqual(await t.cli(["query", "flow", id]));
      expect(back.flowText(id)).toBe(t.flowText(id));
    }
    expect(Object.keys(folder(back.home)).sort()).toEqual(IDS.map((id) => `${id}.json`));
  });

  it("copies a reference flow file without a revision (revision 0) there and back", async () => {
    await threeFlows();
    writeFileSync(t.flowFile(RUNNING), t.flowText(RUNNING).replace(/\n {2}"revision": \d+,/, ""));
    expect(readFileSync(t.flowFile(RUNNING), "utf8")).not.toContain('"revision"');
    expect((await migrate(["--from", t.home, "--to", url])).stderr).toBe("");
    expect((await migrate(["--from", url, "--to", back.home])).stderr).toBe("");
    expect(back.flowText(RUNNING)).toContain('"revision": 0,');
    expect(await back.cli(["query", "flow", RUNNING])).toEqual(await t.cli(["query", "flow", RUNNING]));
    expect((await migrate(["--from", t.home, "--to", back.home])).stdout).toContain("3 already there");
  });

  it("is idempotent: a second run finds every flow already there and writes nothing", async () => {
    await threeFlows();
    await migrate(["--from", t.home, "--to", url]);
    await migrate(["--from", url, "--to", back.home]);
    const inDatabase = rows(url);
    const inFiles = folder(back.home);
    const fileTokens = await tokens(new FileFlowStore(back.home));
    const again = lines(
      ...IDS.map((id) => `already there ${id}`),
      "Migrated 0 flow(s), 3 already there, 0 failed.",
    );
    expect(await migrate(["--from", t.home, "--to", url])).toEqual({
      code: 0,
      stdout: `Migrating the flows of ${t.home} to ${url}\n${again}`,
      stderr: "",
    });
    expect(await migrate(["--from", url, "--to", back.home])).toEqual({
      code: 0,
      stdout: `Migrating the flows of ${url} to ${back.home}\n${again}`,
      stderr: "",
    });
    expect(rows(url)).toBe(inDatabase); // change tokens included
    expect(folder(back.home)).toEqual(inFiles);
    expect(await tokens(new FileFlowStore(back.home))).toEqual(fileTokens);
  });

  it("leaves a flow the target holds in another state alone and reports the conflict", async () => {
    await threeFlows();
    await migrate(["--from", t.home, "--to", url]);
    const inDatabase = rows(url);
    const old = (await new FileFlowStore(t.home).read(JOURNALED))?.revision;
    await t.api().gateResolve({ ...gate, flow_id: JOURNALED, step_id: "review" });
    const now = (await new FileFlowStore(t.home).read(JOURNALED))?.revision;
    expect(await migrate(["--from", t.home, "--to", url])).toEqual({
      code: 1,
      stdout: lines(
        `Migrating the flows of ${t.home} to ${url}`,
        `already there ${DONE}`,
        `already there ${RUNNING}`,
        "Migrated 0 flow(s), 2 already there, 1 failed.",
      ),
      stderr: `conflict ${JOURNALED}: the target has revision ${old}, the source revision ${now} (not migrated)\n`,
    });
    expect(rows(url)).toBe(inDatabase);
  });

  it("skips a corrupt source flow with a warning and migrates the others", async () => {
    await threeFlows();
    writeFileSync(t.flowFile(RUNNING), "{not json");
    const r = await migrate(["--from", t.home, "--to", url]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      lines(
        `Migrating the flows of ${t.home} to ${url}`,
        ...migratedLines("migrated").slice(0, 2),
        "Migrated 2 flow(s), 0 already there, 1 failed.",
      ),
    );
    expect(r.stderr).toMatch(
      new RegExp(`^warning: corrupt flow ${t.flowFile(RUNNING)}: not valid JSON: .* \\(not migrated\\)\\n$`),
    );
    expect(rows(url).split("\n").filter(Boolean)).toHaveLength(2);
  });

  it("--dry-run says what it would copy and writes nothing", async () => {
    await threeFlows();
    expect(await migrate(["--from", t.home, "--to", url, "--dry-run"])).toEqual({
      code: 0,
      stdout: lines(
        `Dry run: would migrate the flows of ${t.home} to ${url}`,
        ...migratedLines("would migrate"),
        "Would migrate 3 flow(s), 0 already there, 0 failed.",
      ),
      stderr: "",
    });
    expect(rows(url)).toBe("");
    await migrate(["--from", t.home, "--to", url]);
    expect((await migrate(["--from", url, "--to", back.home, "--dry-run"])).stdout).toContain(
      "Would migrate 3 flow(s), 0 already there, 0 failed.",
    );
    expect(existsSync(join(back.home, "flows"))).toBe(false);
  });

  it("accepts the flows folder itself as a location; refuses a source that does not exist", async () => {
    await threeFlows();
    const r = await migrate(["--from", join(t.home, "flows"), "--to", join(back.home, "flows")]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout.split("\n")[0]).toBe(`Migrating the flows of ${t.home} to ${back.home}`);
    for (const id of IDS) expect(back.flowText(id)).toBe(t.flowText(id));
    expect(existsSync(join(back.home, "flows", "flows"))).toBe(false);
    const missing = join(t.home, "nowhere");
    expect(await migrate(["--from", missing, "--to", url])).toEqual({
      code: 2,
      stdout: "",
      stderr: `stratumc: --from: no such directory: ${missing}\n`,
    });
    expect((await migrate(["--from", t.home, "--to", join(t.home, "flows")])).stderr).toBe(
      `stratumc: --from and --to name the same store (${t.home})\n`,
    );
  });
});

describe("flows migrate through the built CLI", () => {
  const cli = (args: readonly string[]) => {
    const r = spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), "flows", "migrate", ...args], {
      encoding: "utf8",
      env: { ...process.env, STRATUM_HOME: t.home, STRATUM_STORE: "" },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it("migrates, and never prints the URL's password", async () => {
    await threeFlows();
    // The test server trusts every connection: the password is accepted and never needed.
    const withPassword = url.replace("postgres@", "postgres:secret@");
    const r = cli(["--from", t.home, "--to", withPassword]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toContain(`Migrating the flows of ${t.home} to ${url}\n`);
    expect(r.stdout).toContain("Migrated 3 flow(s), 0 already there, 0 failed.\n");
    expect(r.stdout).not.toContain("secret");
    expect(cli(["--from", withPassword, "--to", back.home]).code).toBe(0);
    for (const id of IDS) expect(back.flowText(id)).toBe(t.flowText(id));
  });

  it("answers an unreachable database with one line, without its password", async () => {
    await threeFlows();
    const r = cli(["--from", t.home, "--to", "postgres://u:secret@127.0.0.1:1/x"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^stratumc: cannot reach the flow store at postgres:\/\/u@127\.0\.0\.1:1\/x: .*\n$/,
    );
    expect(r.stderr).not.toContain("secret");
  });
});
