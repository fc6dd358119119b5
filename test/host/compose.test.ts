// The one composition root (host/compose.ts): which store it picks from the environment and the
// working directory, that an explicit store wins, that the engine it builds runs flows on that
// store, and that the lazy entry of the CLI's flow commands composes the same.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { composeHost } from "../../host/compose";
import { composeHostLazily, FileFlowStore, PgFlowStore } from "../../host/index";
import { wireToPlain } from "../../interpreter/index";
import { MemoryStore } from "../../interpreter/store/memory-store";
import { fromJsonValue } from "../../stdlib/index";

const dir = mkdtempSync(join(tmpdir(), "stratumc-compose-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = `version: "0.2"
contracts:
  Out: {v: {type: integer}}
flows:
  main:
    input: {n: {type: integer}}
    steps:
      - id: double
        intent: "Double n"
        inputs: {n: "$.input.n"}
        output_contract: Out
`;

describe("composeHost", () => {
  it("uses the file store at STRATUM_HOME when STRATUM_STORE is not set", () => {
    const home = join(dir, "home");
    const host = composeHost({ cwd: dir, env: { STRATUM_HOME: home } });
    expect(host.store).toBeInstanceOf(FileFlowStore);
    expect(host.where).toBe(home);
    expect(host.watchDir).toBe(join(home, "flows"));
  });

  it("takes a directory STRATUM_STORE relative to the working directory, before STRATUM_HOME", () => {
    const host = composeHost({ cwd: dir, env: { STRATUM_STORE: "team", STRATUM_HOME: join(dir, "home") } });
    expect(host.store).toBeInstanceOf(FileFlowStore);
    expect(host.where).toBe(join(dir, "team"));
  });

  it("takes a postgres:// STRATUM_STORE as the PostgreSQL store, shown without its password, unconnected", async () => {
    const host = composeHost({
      cwd: dir,
      env: { STRATUM_STORE: "postgres://team:hunter2@127.0.0.1:1/flows" },
    });
    expect(host.store).toBeInstanceOf(PgFlowStore);
    expect(host.where).not.toContain("hunter2");
    expect(host.where).toContain("127.0.0.1:1/flows");
    expect(host.watchDir).toBeNull();
    await host.close();
  });

  it("refuses a location of another scheme rather than taking it for a directory", () => {
    expect(() => composeHost({ cwd: dir, env: { STRATUM_STORE: "mysql://db/flows" } })).toThrow();
  });

  it("uses an explicit store over the environment's, and its engine runs flows on it", async () => {
    const store = new MemoryStore();
    const host = composeHost({
      cwd: dir,
      env: { STRATUM_STORE: join(dir, "ignored") },
      store: { store, where: "memory" },
    });
    expect(host.store).toBe(store);
    expect(host.where).toBe("memory");
    const plan = await host.api().plan({ spec: SPEC, flow: "main", inputs: fromJsonValue({ n: 2 }) });
    const { flow_id: flowId } = wireToPlain(plan) as { flow_id: string };
    expect(await store.read(flowId)).not.toBeNull();
  });

  it("gives a tracer only when the OTEL_* variables ask for one", async () => {
    expect(composeHost({ cwd: dir, env: {} }).tracer("0.0.0", () => {})).toBeNull();
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" };
    const tracer = composeHost({ cwd: dir, env }).tracer("0.0.0", () => {});
    expect(tracer).not.toBeNull();
    await tracer?.shutdown(100);
  });
});

describe("composeHostLazily", () => {
  it("composes the same host as composeHost", async () => {
    const env = { STRATUM_STORE: "lazy" };
    const lazy = await composeHostLazily({ cwd: dir, env });
    const eager = composeHost({ cwd: dir, env });
    expect(lazy.where).toBe(eager.where);
    expect(lazy.store).toBeInstanceOf(FileFlowStore);
  });
});
