// The verifier of judge steps (docs/reference/runtime.md §25.3) on the agent runs of
// stratum_agent_run: each verified or judged predicate gets a fresh directory holding a copy of
// the call's staged evidence (artifacts/<name>.txt, modified/<path>), and the agent runs there with
// the same runner — its own process group, the scrubbed environment of an agent task, a time limit
// (STRATUM_AGENT_RUN_TIMEOUT), bounded output, stopped with the server. The directory is removed
// when the agent ends. The agent's working directory is only its evidence, not the repository.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { JudgeVerifier, VerifierAnswer, VerifierRequest } from "../../interpreter";
import type { AgentRuns } from "./agent-runs";

export function createJudgeVerifier(agents: AgentRuns, stagingParent: string = tmpdir()): JudgeVerifier {
  return {
    async verify(request: VerifierRequest, signal?: AbortSignal): Promise<VerifierAnswer> {
      let root: string;
      try {
        root = mkdtempSync(join(stagingParent, "stratum-judge-"));
      } catch (e) {
        return { ok: false, errorType: "staging_failed", message: errorText(e) };
      }
      try {
        const staged = stage(root, request);
        if (staged !== null) return { ok: false, errorType: "staging_failed", message: staged };
        const r = await agents.run({
          prompt: request.prompt(root),
          type: "claude",
          context: null,
          schema: null,
          model: request.model,
          allowedTools: request.allowedTools,
          disallowedTools: request.disallowedTools,
          effort: null,
          cwd: null,
          stagedCwd: root,
          readJail: null,
          correlationId: null,
          ...(signal === undefined ? {} : { signal }),
        });
        if (r.status === "error") {
          return { ok: false, errorType: String(r.error_type), message: String(r.message) };
        }
        return { ok: true, text: typeof r.text === "string" ? r.text : "" };
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** Writes the staged files under `root`; the problem, or null. */
function stage(root: string, request: VerifierRequest): string | null {
  try {
    mkdirSync(join(root, "artifacts"));
    mkdirSync(join(root, "modified"));
    for (const file of request.files) {
      const target = resolve(root, file.path);
      const inside = relative(root, target);
      // The core built these paths from checked names; a path that would leave the tree is a bug.
      if (inside === "" || inside.split(sep)[0] === ".." || isAbsolute(inside)) {
        return `staged path outside the tree: ${file.path}`;
      }
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.bytes);
    }
    return null;
  } catch (e) {
    return errorText(e);
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
