// Refreshes test/conformance/recorded (the recorded reference behaviour the tests replay) from the
// team's ../shared/conformance, where that exists. The repository keeps its own copy so that a
// fresh clone passes its tests anywhere; run this when the shared recordings change, then review
// the diff and commit it.
import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = process.env.STRATUM_SHARED_DIR ?? join(root, "../shared");
const from = join(source, "conformance");
const to = join(root, "test/conformance/recorded");
if (!existsSync(from)) {
  console.error(`refresh-conformance: ${from} does not exist; nothing to refresh`);
  process.exit(2);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
console.log(`refresh-conformance: copied ${from} to ${to}`);
