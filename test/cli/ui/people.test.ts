// Named reviewers through the built CLI: `stratumc ui add-user` prints the new person's address
// once and keeps only the token's sha256 (mode 0600); `stratumc ui --users` prints no token, signs
// each person in with theirs, reads a person added while it runs, and refuses a bad users file
// (exit 2, with its line) or --token beside --users; `stratumc gate --by` records the name.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { composeHost } from "../../../host/compose";
import { fromJsonValue } from "../../../stdlib/index";
import { tempTree } from "../../hostile/workspace-support";
import { startUi } from "../../ui/browser-support";
import { GATE_SPEC } from "../../ui/gate-spec";
import { ensureBundle, REPO } from "../run-cli";

const tree = tempTree("stratumc-ui-people-");
afterAll(() => tree.dispose());

function stratumc(args: string[], env: Record<string, string> = {}) {
  ensureBundle();
  return spawnSync(process.execPath, [join(REPO, "bin/stratumc.cjs"), ...args], {
    cwd: tree.path,
    env: { PATH: process.env.PATH ?? "", STRATUM_HOME: join(tree.path, "home"), ...env },
    encoding: "utf8",
    timeout: 15_000,
  });
}

/** What add-user printed: the address, whose token signs the person in. */
function addUser(name: string, users: string, extra: string[] = []): { url: URL; stderr: string } {
  const r = stratumc(["ui", "add-user", name, "--users", users, ...extra]);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/^http:\/\/\S+\n$/);
  return { url: new URL(r.stdout.trim()), stderr: r.stderr };
}

async function signIn(origin: string, token: string): Promise<Response> {
  return fetch(`${origin}/api/session`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, Origin: origin },
  });
}

describe("stratumc ui add-user", () => {
  it("prints the person's address once and keeps only the sha256 of the token, mode 0600", () => {
    const { url, stderr } = addUser("ada", "people", ["--port", "8123"]);
    expect(url.origin).toBe("http://127.0.0.1:8123");
    const token = url.searchParams.get("token") ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(stderr).toContain(
      `added ada to ${join(tree.path, "people", "ada.json")} (only the token's sha256 is kept)`,
    );
    expect(stderr).not.toContain(token);
    const file = join(tree.path, "people", "ada.json");
    expect(readFileSync(file, "utf8")).not.toContain(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Asked again: refused, and nothing printed to give away.
    const again = stratumc(["ui", "add-user", "ada", "--users", "people"]);
    expect(again.status).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("'ada' is already there; --replace gives them a new token");
  });

  it("needs to know where the people are kept, and a name that can be a file name", () => {
    const r = stratumc(["ui", "add-user", "bob"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      "--users DIR (one file per person) or --users FILE (.yaml or .json), or STRATUMC_UI_USERS",
    );
    const bad = stratumc(["ui", "add-user", "../bob", "--users", "people"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("a name is 1 to 64 letters");
    expect(readdirSync(tree.path)).not.toContain("bob.json");
  });
});

describe("stratumc ui --users", () => {
  it("prints no token, signs each person in with theirs, and knows of a person added while it runs", async () => {
    const ada = addUser("ada", "team.yaml").url.searchParams.get("token") ?? "";
    const ui = await startUi(join(tree.path, "home"), ["--users", join(tree.path, "team.yaml")]);
    try {
      expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(ui.stderr()).toContain(`1 person of ${join(tree.path, "team.yaml")} sign in`);
      const session = await signIn(ui.origin, ada);
      expect(session.status).toBe(200);
      expect(((await session.json()) as { name: string }).name).toBe("ada");
      expect((await signIn(ui.origin, "not-a-token-0123456789abcdefghij")).status).toBe(401);
      const bob = addUser("bob", "team.yaml").url.searchParams.get("token") ?? "";
      const deadline = Date.now() + 10_000;
      let status = 0;
      while (Date.now() < deadline && status !== 200) {
        // add-user ran synchronously: the server may have closed this client's idle connection meanwhile.
        status = await signIn(ui.origin, bob).then(
          (r) => r.status,
          () => 0,
        );
        if (status !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(200);
    } finally {
      expect(await ui.stop()).toBe(0);
    }
  }, 30_000);

  it("refuses a users file it cannot read, saying where, and --token beside --users", () => {
    writeFileSync(join(tree.path, "broken.yaml"), "users:\n  - name: ada\n    token: abc\n");
    const r = stratumc(["ui", "--port", "0", "--users", "broken.yaml"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("broken.yaml:3:5: unknown key 'token'");
    const both = stratumc(["ui", "--port", "0", "--users", "people", "--token", "0123456789abcdef0123"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("--users signs each person in with their own token: leave out --token");
  });
});

describe("stratumc gate --by", () => {
  it("records the person's name beside resolved_by: human, and refuses it with another resolver", async () => {
    const host = composeHost({ cwd: tree.path, env: { STRATUM_HOME: join(tree.path, "home") } });
    const api = host.api();
    const plan = await api.plan({ spec: GATE_SPEC, flow: "main", inputs: fromJsonValue({ topic: "t" }) });
    const flowId = String(plan.flow_id);
    await api.stepDone({ flow_id: flowId, step_id: "draft", result: fromJsonValue({ text: "a draft" }) });
    const agent = stratumc(["gate", "approve", flowId, "approve", "--by", "ada", "--resolved-by", "agent"]);
    expect(agent.status).toBe(2);
    expect(agent.stderr).toContain("--by names a person: it goes with --resolved-by human");
    const r = stratumc(["gate", "approve", flowId, "approve", "--by", "ada", "--note", "fine"]);
    expect(r.status, r.stderr).toBe(0);
    const flow = stratumc(["query", "flow", flowId]);
    expect(flow.status).toBe(0);
    const records = (JSON.parse(flow.stdout) as { records: Record<string, unknown>[] }).records;
    expect(records.find((r) => r.type === "gate")).toMatchObject({
      outcome: "approve",
      rationale: "fine",
      resolved_by: "human",
      resolved_by_name: "ada",
    });
  });
});
