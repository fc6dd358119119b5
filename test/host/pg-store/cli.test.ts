// `query`, `gate` and `flows prune` of the built CLI against the PostgreSQL store
// ("query, gate, prune work against either store"): flows made by the engine on a database, then
// read, resolved and pruned through `stratumc … --store postgres://…` and through STRATUM_STORE,
// with the same outputs as over files (the reference's query shapes) and nothing printed that
// holds the URL's password.
import { expect, it } from "vitest";
import { PgFlowStore } from "../../../host/pg-store/pg-store";
import { fromJsonValue } from "../../../stdlib/index";
import { ensureBundle, stratumc } from "../../cli/run-cli";
import { makeTestApi } from "../../interpreter/support/make-test-api";
import { GATE_SPEC } from "../../ui/gate-spec";
import { usePostgres } from "./support";

const postgres = usePostgres();

it("lists, resolves and prunes the flows of a database", async () => {
  ensureBundle();
  const url = postgres().createDatabase("cli").replace("postgres@", "postgres:s3cr3t@");
  const store = new PgFlowStore(url);
  try {
    const { api } = makeTestApi({ cwd: "/nowhere", store });
    const ids: string[] = [];
    for (const topic of ["caching", "tracing"]) {
      const plan = await api.plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic }) });
      const flowId = String(plan.flow_id);
      await api.stepDone({
        flow_id: flowId,
        step_id: "draft",
        result: fromJsonValue({ text: `about ${topic}` }),
      });
      ids.push(flowId);
    }
    const [first, second] = ids as [string, string];

    const flows = stratumc(["query", "flows", "--store", url]);
    expect(flows.status, flows.stderr).toBe(0);
    const listed = JSON.parse(flows.stdout) as { flow_id: string; status: string }[];
    expect(listed.map((f) => f.flow_id).sort()).toEqual([...ids].sort());
    expect(listed.every((f) => f.status === "awaiting_gate")).toBe(true);

    const gates = stratumc(["query", "gates"], { env: { STRATUM_STORE: url } });
    expect((JSON.parse(gates.stdout) as { step_id: string }[]).map((g) => g.step_id)).toEqual([
      "approve",
      "approve",
    ]);

    const approved = stratumc(["gate", "approve", first, "approve", "--note", "ship it", "--store", url]);
    expect(approved.status, approved.stderr).toBe(0);
    const detail = stratumc(["query", "flow", first, "--store", url]);
    expect((JSON.parse(detail.stdout) as { status: string }).status).toBe("complete");

    const dry = stratumc(["flows", "prune", "--older-than", "0", "--dry-run", "--store", url]);
    expect(dry.stdout).toContain(`would remove ${first} (complete, main)`);
    const pruned = stratumc(["flows", "prune", "--older-than", "0", "--store", url]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toBe(`removed ${first} (complete, main)\nPruned 1 flow(s).\n`);
    expect(await store.read(first)).toBeNull();
    expect(await store.read(second)).not.toBeNull(); // still waiting at its gate: never pruned

    for (const run of [flows, gates, approved, detail, dry, pruned])
      expect(run.stdout + run.stderr).not.toContain("s3cr3t");
  } finally {
    await store.close();
  }
});
