// `stratumc ui add-user NAME --users DIR|FILE` (docs/guides/ui-people.md): a new random token for a
// person, of which only the sha256 is written — to `DIR/NAME.json`, or into the `users:` list of a
// YAML or JSON users file (its comments and other people kept). The token itself is returned to
// be printed once; nothing stores it. Files are written whole under a temporary name and renamed,
// with mode 0600 (a new directory 0700): a digest is no secret, but who may sign in is nobody
// else's business.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Document, isMap, isSeq, parseDocument } from "yaml";
import { randomToken } from "./auth";
import { NAME_PATTERN, NAME_RULE, tokenSha256Hex } from "./users";
import { loadPeople, readUsersFile, UsersFileError } from "./users-file";

export interface AddUserOptions {
  /** Give an existing person a new token (their old one and its sessions stop working at once). */
  readonly replace: boolean;
  readonly now?: () => Date;
}

export interface AddedUser {
  /** The new token: print it once, store it nowhere. */
  readonly token: string;
  /** The file written. */
  readonly file: string;
  /** Whether the person was there before (replace). */
  readonly replaced: boolean;
}

/** Adds `name` to the users at `location`; throws UsersFileError with the reason when it cannot. */
export function addUser(location: string, name: string, options: AddUserOptions): AddedUser {
  if (!NAME_PATTERN.test(name)) throw new UsersFileError(`'${name}': ${NAME_RULE}`);
  const token = randomToken();
  const entry = {
    name,
    token_sha256: tokenSha256Hex(token),
    created: (options.now?.() ?? new Date()).toISOString(),
  };
  const added = isDirectoryLocation(location)
    ? addToDirectory(location, entry, options.replace)
    : addToFile(location, entry, options.replace);
  // What was written must load as the server will load it.
  loadPeople(location);
  return { token, ...added };
}

interface Entry {
  readonly name: string;
  readonly token_sha256: string;
  readonly created: string;
}

function isDirectoryLocation(location: string): boolean {
  if (existsSync(location)) return statSync(location).isDirectory();
  return !/\.(json|ya?ml)$/i.test(location);
}

function addToDirectory(dir: string, entry: Entry, replace: boolean): Omit<AddedUser, "token"> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `${entry.name}.json`);
  const there = existsSync(file);
  if (there && !replace) throw alreadyThere(entry.name);
  writePrivate(file, `${JSON.stringify(entry, null, 2)}\n`);
  return { file, replaced: there };
}

function addToFile(file: string, entry: Entry, replace: boolean): Omit<AddedUser, "token"> {
  const text = existsSync(file) ? readFileSync(file, "utf8") : null;
  // A file that does not load is not edited: its problem is reported with its position.
  const people = text === null ? [] : readUsersFile(file, text);
  const index = people.findIndex((p) => p.name === entry.name);
  if (index !== -1 && !replace) throw alreadyThere(entry.name);
  const doc = text === null ? new Document({ users: [] }) : parseDocument(text);
  const users = doc.get("users");
  if (!isSeq(users)) throw new UsersFileError(`${file}: 'users' must be a list of people`);
  if (index === -1) {
    users.add(doc.createNode(entry));
  } else {
    const person = users.items[index];
    if (!isMap(person)) throw new UsersFileError(`${file}: the entry of '${entry.name}' is not a mapping`);
    person.set("token_sha256", entry.token_sha256);
    person.set("created", entry.created);
  }
  const out = /\.json$/i.test(file) ? `${JSON.stringify(doc.toJS(), null, 2)}\n` : doc.toString();
  writePrivate(file, out);
  return { file, replaced: index !== -1 };
}

function alreadyThere(name: string): UsersFileError {
  return new UsersFileError(
    `'${name}' is already there; --replace gives them a new token (the old one and its sessions stop working)`,
  );
}

/** Written whole under a temporary name in the same folder, then renamed over the file; mode 0600. */
function writePrivate(file: string, text: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = join(dir, `.${randomBytes(6).toString("hex")}.tmp`);
  writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
