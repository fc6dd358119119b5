// The owner records of parallel executors (docs/reference/runtime.md §23.11): `<dir>/<flow_id>.owner` exists
// while an executor of this process runs the flow's parallel step, holding the process's identity
// as a lock file does (`<pid> <tag> <start time> <host>`, file-store/lock.ts). Another server on
// the same store reads it to decide whether the flow's unsettled task entries are orphans: only a
// record of this host whose process is certainly gone (pid dead, or reused with another start
// time) counts as gone; a record of another host, or one that cannot be judged, counts as live.
// The directory is beside the flow store (`$STRATUM_HOME/parallel-executors`), so servers that
// share a file store share the records; servers on other hosts never mark each other's tasks.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { type ExecutorOwnerState, isSafeFlowId, type ParallelExecutorOwners } from "../../interpreter/index";
import { errorCode, unlinkIfPresent } from "../file-store/fs-util";
import { lockContent, parseLockOwner } from "../file-store/lock";
import { ownProcess, processGone } from "../file-store/process-identity";

export function executorOwnersDir(stratumHome: string): string {
  return join(stratumHome, "parallel-executors");
}

export function createExecutorOwners(dir: string): ParallelExecutorOwners {
  const pathOf = (flowId: string): string | null =>
    isSafeFlowId(flowId) ? join(dir, `${flowId}.owner`) : null;
  const read = (path: string): string | null => {
    try {
      return readFileSync(path, "utf8");
    } catch (e) {
      if (errorCode(e) === "ENOENT") return null;
      throw e;
    }
  };
  const stateOf = (content: string | null): ExecutorOwnerState => {
    if (content === null) return "none";
    const owner = parseLockOwner(content);
    if (owner === null || owner.host !== hostname()) return "live";
    const self = ownProcess();
    if (owner.pid === self.pid && owner.startTime === self.startTime) return "self";
    return processGone(owner) ? "gone" : "live";
  };
  const create = (path: string): boolean => {
    try {
      writeFileSync(path, `${lockContent()}\n`, { flag: "wx" });
      return true;
    } catch (e) {
      if (errorCode(e) === "EEXIST") return false;
      throw e;
    }
  };
  return {
    claim(flowId) {
      const path = pathOf(flowId);
      if (path === null) return true;
      mkdirSync(dir, { recursive: true });
      if (create(path)) return true;
      const content = read(path);
      const state = stateOf(content);
      if (state === "self") return true;
      if (state === "live") return false;
      // A dead owner's record (or none any more): replaced by exclusive creation, so of two
      // servers claiming at once only one wins.
      if (content !== null && read(path) === content) unlinkIfPresent(path);
      return create(path);
    },
    release(flowId) {
      const path = pathOf(flowId);
      if (path !== null && stateOf(read(path)) === "self") unlinkIfPresent(path);
    },
    state(flowId) {
      const path = pathOf(flowId);
      return path === null ? "none" : stateOf(read(path));
    },
    clearGone(flowId) {
      const path = pathOf(flowId);
      if (path !== null && stateOf(read(path)) === "gone") unlinkIfPresent(path);
    },
  };
}
