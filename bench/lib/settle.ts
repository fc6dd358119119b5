// Before a part that times fsyncs: the parts before it (10,000 flows written and removed, say)
// leave the disk busy writing back for seconds, which slows every flush measured next, ours more
// than the baseline's small file. `sync` and a short pause let that finish first.
import { spawnSync } from "node:child_process";

export async function settleDisk(pauseMs = 2000): Promise<void> {
  spawnSync("sync", { stdio: "ignore" });
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
