// `stratumc ui add-user NAME [--users DIR|FILE] [--replace]` once its options are parsed
// (docs/guides/ui-people.md): adds the person (users-add.ts) and prints their sign-in address, with
// the new token in it, this once: the token is stored nowhere, so it cannot be shown again.
import { resolve } from "node:path";
import { addUser } from "./users-add";
import { UsersFileError } from "./users-file";

export interface AddUserRequest {
  readonly name: string;
  /** `--users`; null: STRATUMC_UI_USERS. */
  readonly users: string | null;
  readonly replace: boolean;
  /** Where `stratumc ui` will listen, for the address printed. */
  readonly host: string;
  readonly port: number;
}

interface Output {
  out(text: string): void;
  err(text: string): void;
}

/** The exit code: 0 added, 1 the users cannot be written or read, 2 no location. */
export function addUserCommand(
  request: AddUserRequest,
  host: { readonly cwd: string; readonly env: Readonly<Record<string, string | undefined>> },
  output: Output,
): number {
  const given = request.users ?? host.env.STRATUMC_UI_USERS ?? "";
  if (given === "") {
    output.err(
      "stratumc ui add-user: say where the people are kept: --users DIR (one file per person) or --users FILE (.yaml or .json), or STRATUMC_UI_USERS\n",
    );
    return 2;
  }
  const location = resolve(host.cwd, given);
  let added: ReturnType<typeof addUser>;
  try {
    added = addUser(location, request.name, { replace: request.replace });
  } catch (e) {
    if (!(e instanceof UsersFileError) && !isFsError(e)) throw e;
    output.err(`stratumc ui add-user: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  const shown = request.host === "127.0.0.1" || request.host === "localhost" ? "127.0.0.1" : request.host;
  const hostPart = shown.includes(":") && !shown.startsWith("[") ? `[${shown}]` : shown;
  output.err(
    `stratumc ui add-user: ${added.replaced ? "gave" : "added"} ${request.name} ${added.replaced ? "a new token in" : "to"} ${added.file} (only the token's sha256 is kept).\n` +
      `Give ${request.name} this address for \`stratumc ui --users ${given}\` (port ${request.port}; a running server reads the change within a second); it is shown now and never again:\n`,
  );
  output.out(`http://${hostPart}:${request.port}/?token=${encodeURIComponent(added.token)}\n`);
  return 0;
}

function isFsError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === "string";
}
