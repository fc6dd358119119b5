// Before the daemon listens, it checks a clean and a broken spec once (output discarded), so that
// even its first answer runs compiled, warmed-up code.
import { serveCheck } from "./serve-check";

declare const STRATUMC_WARMUP_SPEC: string | undefined;

const BROKEN = `version: "0.2"
functions:
  work: {mode: infer, intent: "Work", input: {}, output: Nope, ensure: ["result.x > '1'"]}
flows:
  main:
    steps:
      - {id: a, function: work, depends_on: [b]}
`;

export async function warmUpDaemon(): Promise<void> {
  const clean = typeof STRATUMC_WARMUP_SPEC === "string" ? STRATUMC_WARMUP_SPEC : 'version: "0.1"\n';
  for (const spec of [clean, BROKEN, clean, BROKEN]) {
    try {
      await serveCheck({
        op: "check",
        build: "",
        argv: ["check", "-"],
        cwd: "/",
        env: {},
        stdoutIsTTY: false,
        stderrIsTTY: false,
        stdin: Buffer.from(spec).toString("base64"),
      });
    } catch {
      // only slower
    }
  }
}
