// Which flow store a command uses (docs/guides/team-store.md): `--store LOCATION` when the command was
// given one, else `STRATUM_STORE`, else the file store at `STRATUM_HOME` (default `~/.stratum`).
// A location is a `postgres://` URL (the team store) or a directory used as STRATUM_HOME.
// The composition root (host/compose.ts) reads the location, relative directories from the working directory.
import type { CliHost } from "./command-context";

/** The host with `--store`'s value in force: commands pass it on as STRATUM_STORE. */
export function withStoreOption(host: CliHost, store: string | undefined): CliHost {
  return store === undefined ? host : { ...host, env: { ...host.env, STRATUM_STORE: store } };
}

export const STORE_OPTION_FLAGS = "--store <location>";
export const STORE_OPTION_HELP =
  "the flow store: a postgres:// URL or a STRATUM_HOME directory (default: $STRATUM_STORE, else $STRATUM_HOME)";
