// The executor owner records (host/parallel/executor-owners.ts): claimed by exclusive creation,
// judged like a lock's owner (this process, a live process, a dead one, another host).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readStartTime } from "../../../host/file-store/process-identity";
import { createExecutorOwners } from "../../../host/parallel/executor-owners";

describe("executor owner records", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "stratum-owners-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const record = (flowId: string, content: string) => writeFileSync(join(dir, `${flowId}.owner`), content);

  it("claims, reports itself and releases", () => {
    const owners = createExecutorOwners(dir);
    expect(owners.state("f1")).toBe("none");
    expect(owners.claim("f1")).toBe(true);
    expect(owners.state("f1")).toBe("self");
    expect(owners.claim("f1")).toBe(true);
    owners.release("f1");
    expect(owners.state("f1")).toBe("none");
  });

  it("refuses a live owner's record and never removes it", () => {
    const parent = process.ppid;
    record("f1", `${parent} tag ${readStartTime(parent) ?? "-"} ${hostname()}\n`);
    const owners = createExecutorOwners(dir);
    expect(owners.state("f1")).toBe("live");
    expect(owners.claim("f1")).toBe(false);
    owners.release("f1");
    owners.clearGone("f1");
    expect(owners.state("f1")).toBe("live");
  });

  it("counts another host's record as live, whatever its pid", () => {
    record("f1", `999999 tag 1 elsewhere.example\n`);
    expect(createExecutorOwners(dir).state("f1")).toBe("live");
  });

  it("takes over a dead owner's record and clears it", () => {
    const dead = spawnSync(process.execPath, [
      "-e",
      "process.stdout.write(String(process.pid))",
    ]).stdout.toString();
    record("f1", `${dead} tag - ${hostname()}\n`);
    record("f2", `${dead} tag - ${hostname()}\n`);
    const owners = createExecutorOwners(dir);
    expect(owners.state("f1")).toBe("gone");
    owners.clearGone("f1");
    expect(owners.state("f1")).toBe("none");
    expect(owners.claim("f2")).toBe(true);
    expect(owners.state("f2")).toBe("self");
  });

  it("keeps no record for an unsafe flow id", () => {
    const owners = createExecutorOwners(dir);
    expect(owners.claim("../x")).toBe(true);
    expect(owners.state("../x")).toBe("none");
  });
});
