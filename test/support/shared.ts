// The project's shared requirements folder: `../shared` beside the repository (as on developer
// machines and in CI, which clones main with shared/ beside it).

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
export const SHARED_DIR = process.env.STRATUM_SHARED_DIR ?? resolve(REPO_ROOT, "../shared");
export const EXPRESSIONS_TSV = resolve(SHARED_DIR, "conformance/expressions.tsv");
