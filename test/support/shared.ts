// The recorded reference behaviour the tests replay (validation cases, runtime scenarios, real
// expressions): a copy kept in the repository, test/conformance/recorded, so that a fresh clone
// passes its tests on any machine. `node scripts/refresh-conformance.mjs` refreshes it from the
// team's shared conformance folder beside the checkout where that exists; STRATUM_CONFORMANCE_DIR points the tests at
// another copy.

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
export const CONFORMANCE_DIR =
  process.env.STRATUM_CONFORMANCE_DIR ?? resolve(REPO_ROOT, "test/conformance/recorded");
export const EXPRESSIONS_TSV = resolve(CONFORMANCE_DIR, "expressions.tsv");
