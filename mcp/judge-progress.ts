// What a `stratum_judge` call's progress tells an MCP client: the verifier agents answered of those
// the call runs (one per verified or judged predicate, one after another), and which predicate is
// being verified. An agent may take minutes, so while one runs the progress also creeps up every
// 10 s — toward the next whole number, never reaching it — so clients that reset their timeout on
// progress keep waiting, and the message says for how long it has run.
import type { VerifierStart } from "../interpreter/index";
import type { Progress, ProgressReporter } from "./progress";

/** How often a running verifier agent is said to still run. */
const HEARTBEAT_MS = 10_000;

export interface JudgeProgress {
  /** A verifier agent starts. */
  readonly onVerifier: (start: VerifierStart) => void;
  /** The call ended: no more reports. */
  stop(): void;
}

/** The report of the `beats`-th heartbeat of the agent that started at `start` (0: it starts). */
export function verifierProgress(start: VerifierStart, beats: number, seconds: number): Progress {
  const where = `verifying predicate '${start.predicate}' (${start.done + 1} of ${start.total}) with an agent`;
  return {
    progress: start.done + beats / (beats + 1),
    total: start.total,
    message: beats === 0 ? where : `${where}: running for ${seconds} s`,
  };
}

export function judgeProgress(reporter: ProgressReporter, everyMs = HEARTBEAT_MS): JudgeProgress {
  let timer: ReturnType<typeof setInterval> | null = null;
  const stop = (): void => {
    if (timer !== null) clearInterval(timer);
    timer = null;
  };
  return {
    onVerifier(start) {
      stop();
      const startedAt = Date.now();
      let beats = 0;
      reporter.report(verifierProgress(start, 0, 0));
      timer = setInterval(() => {
        beats++;
        reporter.report(verifierProgress(start, beats, Math.round((Date.now() - startedAt) / 1000)));
      }, everyMs);
      timer.unref?.();
    },
    stop,
  };
}
