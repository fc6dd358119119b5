// `stratumc flows prune`: which kept flows are deleted, the age option, --dry-run.
import { existsSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parsePruneAge } from "../../../interpreter/query/prune";
import { flowId, result, SPEC, TestHome } from "./harness";

let t: TestHome;
beforeEach(() => {
  t = new TestHome();
});
afterEach(() => t.dispose());

const [COMPLETE, KILLED, EXHAUSTED, RUNNING, AT_GATE, CLEANING] = [1, 2, 3, 4, 5, 6].map(flowId) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const gate = { outcome: "approve", rationale: "", resolved_by: "human" };

/** One flow in each state, all last modified `days` days ago. */
async function flowsOfEveryKind(days: number): Promise<void> {
  const api = t.api();
  const draft = (id: string, text: string) =>
    api.stepDone({ flow_id: id, step_id: "draft", result: result(`{"text": "${text}"}`) });
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await draft(COMPLETE, "ok");
  await api.gateResolve({ ...gate, flow_id: COMPLETE, step_id: "review" });
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await draft(KILLED, "ok");
  await api.gateResolve({ ...gate, flow_id: KILLED, step_id: "review", outcome: "kill" });
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await draft(EXHAUSTED, "bad");
  expect((await draft(EXHAUSTED, "bad")).error_type).toBe("retries_exhausted");
  await api.plan({ spec: SPEC, flow: "reviewed" }); // RUNNING
  await api.plan({ spec: SPEC, flow: "reviewed" });
  await draft(AT_GATE, "ok");
  // Killed with a named on_kill: status killed while the cleanup step still runs.
  await api.plan({ spec: SPEC, flow: "routed" });
  await api.stepDone({ flow_id: CLEANING, step_id: "prepare", result: result("1") });
  await api.gateResolve({ ...gate, flow_id: CLEANING, step_id: "review", outcome: "kill" });
  for (const id of [COMPLETE, KILLED, EXHAUSTED, RUNNING, AT_GATE, CLEANING]) t.age(id, days);
}

function remaining(): string[] {
  return [COMPLETE, KILLED, EXHAUSTED, RUNNING, AT_GATE, CLEANING].filter((id) => existsSync(t.flowFile(id)));
}

describe("flows prune", () => {
  it("by default deletes complete and killed flows older than 7 days, never unfinished ones", async () => {
    await flowsOfEveryKind(8);
    expect(await t.cli(["flows", "prune"])).toEqual({
      code: 0,
      stdout: `removed ${COMPLETE} (complete, reviewed)\nremoved ${KILLED} (killed, reviewed)\nPruned 2 flow(s).\n`,
      stderr: "",
    });
    expect(remaining()).toEqual([EXHAUSTED, RUNNING, AT_GATE, CLEANING]);
  });

  it("keeps flows modified within the age", async () => {
    await flowsOfEveryKind(6);
    expect((await t.cli(["flows", "prune"])).stdout).toBe("Pruned 0 flow(s).\n");
    expect(remaining()).toHaveLength(6);
  });

  it("--include-exhausted adds exhausted flows; --older-than 0 ignores the age", async () => {
    await flowsOfEveryKind(0);
    expect((await t.cli(["flows", "prune", "--older-than", "0", "--include-exhausted"])).stdout).toBe(
      `removed ${COMPLETE} (complete, reviewed)\nremoved ${KILLED} (killed, reviewed)\nremoved ${EXHAUSTED} (exhausted, reviewed)\nPruned 3 flow(s).\n`,
    );
    expect(remaining()).toEqual([RUNNING, AT_GATE, CLEANING]);
  });

  it("--dry-run lists the same flows and deletes nothing", async () => {
    await flowsOfEveryKind(30);
    const before = remaining().map((id) => t.flowText(id));
    expect(await t.cli(["flows", "prune", "--dry-run"])).toEqual({
      code: 0,
      stdout: `would remove ${COMPLETE} (complete, reviewed)\nwould remove ${KILLED} (killed, reviewed)\nWould prune 2 flow(s).\n`,
      stderr: "",
    });
    expect(remaining().map((id) => t.flowText(id))).toEqual(before);
  });

  it("removes temporary and lock files a crashed writer left (older than 30 s), not fresh ones", async () => {
    const planned = await t.api().plan({ spec: SPEC, flow: "reviewed" });
    const id = String(planned.flow_id);
    const flows = join(t.home, "flows");
    const old = join(flows, `${id}.json.tmp-999-abc`);
    const oldLock = join(flows, `${id}.json.lock`);
    const fresh = join(flows, `${id}.json.tmp-998-def`);
    for (const f of [old, oldLock, fresh]) writeFileSync(f, "partial");
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(old, minuteAgo, minuteAgo);
    utimesSync(oldLock, minuteAgo, minuteAgo);
    expect((await t.cli(["flows", "prune", "--dry-run"])).code).toBe(0);
    expect(existsSync(old)).toBe(true); // a dry run deletes nothing
    expect((await t.cli(["flows", "prune"])).stdout).toBe("Pruned 0 flow(s).\n");
    expect([existsSync(old), existsSync(oldLock), existsSync(fresh)]).toEqual([false, false, true]);
    expect(existsSync(join(flows, `${id}.json`))).toBe(true);
  });

  it("accepts a duration: 12h prunes a flow 1 day old, 2d does not", async () => {
    await flowsOfEveryKind(1);
    expect((await t.cli(["flows", "prune", "--older-than", "2d"])).stdout).toBe("Pruned 0 flow(s).\n");
    expect((await t.cli(["flows", "prune", "--older-than", "12h"])).stdout).toContain("Pruned 2 flow(s).");
    expect(remaining()).toEqual([EXHAUSTED, RUNNING, AT_GATE, CLEANING]);
  });

  it("a pruned flow is gone for query", async () => {
    await flowsOfEveryKind(10);
    await t.cli(["flows", "prune"]);
    expect((await t.cli(["query", "flow", COMPLETE])).code).toBe(1);
    // --all: without it `query flows` lists only the flows in progress (not the exhausted one).
    const ids = (JSON.parse((await t.cli(["query", "flows", "--all"])).stdout) as { flow_id: string }[]).map(
      (f) => f.flow_id,
    );
    expect(ids).toEqual([EXHAUSTED, RUNNING, AT_GATE, CLEANING]);
  });

  it("prints Pruned 0 flow(s). when STRATUM_HOME has no flows", async () => {
    expect(await t.cli(["flows", "prune"])).toEqual({ code: 0, stdout: "Pruned 0 flow(s).\n", stderr: "" });
  });

  it.each([["--older-than", "soon"], ["--older-than", "-1"], ["--older-than", "7w"], ["extra"]])(
    "%s %s is a usage error, exit 2",
    async (...args) => {
      const r = await t.cli(["flows", "prune", ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).not.toBe("");
    },
  );
});

describe("parsePruneAge", () => {
  it.each([
    ["7", 7 * 86_400_000],
    ["0", 0],
    ["1.5", 1.5 * 86_400_000],
    ["7d", 7 * 86_400_000],
    ["12h", 12 * 3_600_000],
    ["30m", 30 * 60_000],
    ["45s", 45_000],
    [" 3d ", 3 * 86_400_000],
  ])("%j → %d ms", (text, ms) => {
    expect(parsePruneAge(text)).toBe(ms);
  });

  it.each(["", "d", "-1", "1e3", "7w", "7 d", "7dd", ".5", "Infinity"])("%j is refused", (text) => {
    expect(parsePruneAge(text)).toBeNull();
  });
});
