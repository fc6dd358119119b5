// Where the file store keeps its data (docs/reference/runtime.md §14.1): `STRATUM_HOME`, default `~/.stratum`.
import { join, resolve } from "node:path";

/**
 * The store's home directory: `STRATUM_HOME` when set and not empty (a leading `~` is the user's
 * home, as a shell would expand it; a relative path is taken from the current directory), else
 * `<homedir>/.stratum`.
 */
export function stratumHome(env: Readonly<Record<string, string | undefined>>, homedir: string): string {
  const value = env.STRATUM_HOME;
  if (value === undefined || value === "") return join(homedir, ".stratum");
  if (value === "~") return homedir;
  if (value.startsWith("~/")) return join(homedir, value.slice(2));
  return resolve(value);
}
