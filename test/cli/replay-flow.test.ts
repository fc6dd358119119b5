// `stratumc replay --flow ID --spec FILE` and `--all` through the built CLI: flows recorded by the
// real interpreter into a file store (and a PostgreSQL store), replayed against the spec they were
// recorded on (no divergence, exit 0) and against edited versions (the divergence at the edited
// spec's line, exit 1), the JSON shape, which flows --all picks, a sub-flow step replayed through
// its stored child flow (and unjudged, exit 4, when the child is gone), and the usage errors (exit 2).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileFlowStore } from "../../host/file-store/file-store";
import { PgFlowStore } from "../../host/pg-store/pg-store";
import { fromJsonValue } from "../../stdlib/index";
import { edited, engineOver, lineOf, recordRelease, V1 } from "../fuzzer/replay-flow/record";
import { type PgServer, startPostgres } from "../support/postgres";
import { ensureBundle, stratumc } from "./run-cli";

const TIGHTENED = edited('"result.size > 0"', '"result.size > 7"');
const REMOVED = edited(
  `      - id: notes
        intent: "Write the release notes"
        output_contract: Notes
        skip_if: "$.input.version == 'internal'"
`,
  "",
);
/** Another spec with a flow of another name: --all leaves its flows alone. */
const OTHER = `version: "0.2"
flows:
  chores:
    input: {}
    steps:
      - id: sweep
        intent: "Sweep"
`;

let dir: string;
let home: string;
let complete: string;
let running: string;
let chores: string;
let outer: string;
let orphan: string;
let orphanChild: string;
const KINDS = readFileSync(join(import.meta.dirname, "../fuzzer/replay-flow/kinds.stratum.yaml"), "utf8");
/** KINDS with an ensure on the child flow's step that the recorded result (v: 1) fails. */
const CHILD_TIGHTENED = edited('intent: "Work"', 'intent: "Work"\n        ensure: ["result.v > 5"]', KINDS);

/** Plans `outer` and finishes its sub-flow step through its child; the parent's and child's ids. */
async function recordOuter(api: ReturnType<typeof engineOver>): Promise<{ parent: string; child: string }> {
  const planned = (await api.plan({ spec: KINDS, flow: "outer", inputs: fromJsonValue({}) })) as Record<
    string,
    unknown
  >;
  const parent = String(planned.parent_flow_id);
  const child = String(planned.child_flow_id);
  const finished = await api.stepDone({ flow_id: child, step_id: "work", result: fromJsonValue({ v: 1 }) });
  await api.stepDone({ flow_id: parent, step_id: "child", result: fromJsonValue(finished) });
  return { parent, child };
}

beforeAll(async () => {
  ensureBundle();
  dir = mkdtempSync(join(tmpdir(), "stratumc-replay-flow-"));
  home = join(dir, "home");
  for (const [name, text] of [
    ["v1.stratum.yaml", V1],
    ["tightened.stratum.yaml", TIGHTENED],
    ["removed.stratum.yaml", REMOVED],
    ["broken.stratum.yaml", "version: '0.2'\nflows: 3\n"],
    ["kinds.stratum.yaml", KINDS],
    ["child-tightened.stratum.yaml", CHILD_TIGHTENED],
  ] as const)
    writeFileSync(join(dir, name), text);
  const files = new FileFlowStore(home);
  const api = engineOver(files);
  complete = await recordRelease(api);
  running = await recordRelease(api, V1, false);
  const other = (await api.plan({ spec: OTHER, flow: "chores", inputs: fromJsonValue({}) })) as {
    flow_id: string;
  };
  chores = other.flow_id;
  // A flow whose first step is a sub-flow step, finished through its child; and one whose child
  // flow was removed from the store since.
  outer = (await recordOuter(api)).parent;
  const gone = await recordOuter(api);
  orphan = gone.parent;
  orphanChild = gone.child;
  await files.remove(orphanChild);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const replay = (...args: string[]) => stratumc(["replay", ...args, "--store", home], { cwd: dir });

describe("replay --flow --spec", () => {
  it("finds no divergence against the recorded spec (exit 0)", () => {
    const r = replay("--flow", complete, "--spec", "v1.stratum.yaml");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      `flow ${complete} (release, complete): no divergence (7 recorded answers replayed)`,
    );
    expect(r.stdout).toContain("1 flow(s) replayed: 0 diverge(s), 0 could not be judged.");
  });

  it("reports a tightened ensure at its line (exit 1)", () => {
    const r = replay("--flow", complete, "--spec", "tightened.stratum.yaml");
    expect(r.status).toBe(1);
    const line = lineOf(TIGHTENED, "result.size > 7");
    expect(r.stdout).toContain(`diverges at tightened.stratum.yaml:${line}:`);
    expect(r.stdout).toContain("result_rejected: the recorded result of step 'build' is now rejected");
  });

  it("reports a removed step in JSON, located in the edited spec", () => {
    const r = replay("--flow", complete, "--spec", "removed.stratum.yaml", "--format", "json");
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.summary).toEqual({ flows: 1, diverged: 1, unjudged: 0 });
    const [flow] = out.flows;
    expect(flow).toMatchObject({ flow_id: complete, flow_name: "release", status: "complete", entries: 7 });
    expect(flow.divergence).toMatchObject({ kind: "step_removed", step: "notes" });
    expect(flow.divergence.line).toBe(lineOf(REMOVED, "- id: sign_off"));
  });

  it("takes the store from STRATUM_STORE when --store is not given", () => {
    const r = stratumc(["replay", "--flow", running, "--spec", "v1.stratum.yaml"], {
      cwd: dir,
      env: { STRATUM_STORE: home },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`flow ${running} (release, awaiting_gate): no divergence`);
  });
});

describe("a sub-flow step, replayed through its child flow", () => {
  it("finds no divergence against the recorded spec (exit 0)", () => {
    const r = replay("--flow", outer, "--spec", "kinds.stratum.yaml");
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toContain(`flow ${outer} (outer, running): no divergence (1 recorded answer replayed)`);
  });

  it("names the child flow and its step when the child's part of the spec changed (exit 1)", () => {
    const r = replay("--flow", outer, "--spec", "child-tightened.stratum.yaml", "--format", "json");
    expect(r.status).toBe(1);
    const [flow] = JSON.parse(r.stdout).flows;
    expect(flow.divergence).toMatchObject({
      kind: "result_rejected",
      step: "work",
      message:
        "in sub-flow 'leaf' (step 'child' of flow 'outer'): the recorded result of step 'work' is now rejected: ensure 'result.v > 5' failed",
      line: lineOf(CHILD_TIGHTENED, 'ensure: ["result.v > 5"]'),
      sub_flow: { flow: "leaf", parent_flow: "outer", parent_step: "child" },
    });
  });

  it("exits 4 with the reason when the child flow is no longer in the store", () => {
    const r = replay("--flow", orphan, "--spec", "kinds.stratum.yaml");
    expect(r.status).toBe(4);
    expect(r.stdout).toContain(
      `flow ${orphan} (outer, running): cannot judge: the replay stops at step 'child' (recorded answer 1 of 1): a sub-flow step whose child flow ${orphanChild} is not in the store`,
    );
    expect(r.stdout).toContain("1 flow(s) replayed: 0 diverge(s), 1 could not be judged.");
  });
});

describe("replay --all --spec", () => {
  it("replays every stored flow whose name is a flow of the spec, and only those", () => {
    const r = replay("--all", "--spec", "tightened.stratum.yaml", "--format", "json");
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    const ids = out.flows.map((f: { flow_id: string }) => f.flow_id).sort();
    expect(ids).toEqual([complete, running].sort());
    expect(ids).not.toContain(chores);
    expect(out.summary).toEqual({ flows: 2, diverged: 2, unjudged: 0 });
  });

  it("exits 0 when no flow diverges", () => {
    const r = replay("--all", "--spec", "v1.stratum.yaml");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("2 flow(s) replayed: 0 diverge(s), 0 could not be judged.");
  });
});

describe("usage errors (exit 2)", () => {
  it.each([
    [["--flow", "10000000-0000-4000-8000-0000000000ff", "--spec", "v1.stratum.yaml"], "no flow"],
    [["--flow", "../etc", "--spec", "v1.stratum.yaml"], "not a flow id"],
    [["--spec", "v1.stratum.yaml"], "--spec needs --flow ID or --all"],
    [["--all"], "need --spec"],
    [["--all", "--flow", "x", "--spec", "v1.stratum.yaml"], "not both"],
    [["--all", "--spec", "missing.stratum.yaml"], "cannot read missing.stratum.yaml"],
    [["--all", "--spec", "broken.stratum.yaml"], "broken.stratum.yaml has errors"],
    [["some.json", "--all", "--spec", "v1.stratum.yaml"], "not both"],
  ])("%j", (args, message) => {
    const r = replay(...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
  });

  it("a store that cannot be reached (not 1, which means a divergence)", () => {
    const r = stratumc(
      ["replay", "--all", "--spec", "v1.stratum.yaml", "--store", "postgres://nobody@127.0.0.1:1/x"],
      {
        cwd: dir,
      },
    );
    expect(r.stderr).toContain("cannot reach the flow store");
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
  });
});

describe("a PostgreSQL store", () => {
  let pg: PgServer;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(() => pg?.destroy());

  it("replays a flow recorded there", async () => {
    const url = pg.createDatabase("replay");
    const store = new PgFlowStore(url);
    const id = await recordRelease(engineOver(store));
    await store.close();
    const same = stratumc(["replay", "--flow", id, "--spec", "v1.stratum.yaml", "--store", url], {
      cwd: dir,
    });
    expect(same.stderr).toBe("");
    expect(same.status).toBe(0);
    expect(same.stdout).toContain("no divergence");
    const tightened = stratumc(["replay", "--all", "--spec", "tightened.stratum.yaml", "--store", url], {
      cwd: dir,
    });
    expect(tightened.status).toBe(1);
    expect(tightened.stdout).toContain(`flow ${id} (release, complete): diverges at tightened.stratum.yaml:`);
  });

  it("replays a sub-flow step through the child flow stored there", async () => {
    const url = pg.createDatabase("replay_subflow");
    const store = new PgFlowStore(url);
    const { parent } = await recordOuter(engineOver(store));
    await store.close();
    const same = stratumc(["replay", "--flow", parent, "--spec", "kinds.stratum.yaml", "--store", url], {
      cwd: dir,
    });
    expect([same.status, same.stderr]).toEqual([0, ""]);
    expect(same.stdout).toContain("no divergence (1 recorded answer replayed)");
    const changed = stratumc(
      ["replay", "--flow", parent, "--spec", "child-tightened.stratum.yaml", "--store", url],
      { cwd: dir },
    );
    expect(changed.status).toBe(1);
    expect(changed.stdout).toContain("in sub-flow 'leaf' (step 'child' of flow 'outer')");
  });
});
