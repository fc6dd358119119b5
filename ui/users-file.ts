// Reading `--users` (docs/guides/ui-people.md): a users file (YAML or JSON, `users:` a list of
// people) or a directory of one JSON file per person, `<name>.json`, as `stratumc ui add-user`
// writes them. Every problem names its file, line and column, so a hand-edited file is fixed
// where it is wrong; a bad file stops the server (no person is quietly left out).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { type MayResolve, NAME_PATTERN, NAME_RULE, People, type Person } from "./users";

export class UsersFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsersFileError";
  }
}

/** The people of a users file or directory; throws UsersFileError naming where it is wrong. */
export function loadPeople(location: string): People {
  let isDir: boolean;
  try {
    isDir = statSync(location).isDirectory();
  } catch (e) {
    throw new UsersFileError(`${location}: cannot read it (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  const people = isDir ? readDirectory(location) : readUsersFile(location, readText(location));
  if (people.length === 0) {
    throw new UsersFileError(
      `${location}: no people in it; add one with \`stratumc ui add-user NAME --users ${location}\``,
    );
  }
  const names = new Set<string>();
  const digests = new Set<string>();
  for (const person of people) {
    if (names.has(person.name)) throw new UsersFileError(`${location}: '${person.name}' is there twice`);
    const digest = person.tokenSha256.toString("hex");
    if (digests.has(digest))
      throw new UsersFileError(`${location}: '${person.name}' has the token of another person`);
    names.add(person.name);
    digests.add(digest);
  }
  return new People(people);
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new UsersFileError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
}

function readDirectory(dir: string): Person[] {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort();
  return files.map((name) => {
    const file = join(dir, name);
    const text = readText(file);
    const where = new Where(file, text);
    const doc = where.parse();
    const person = readPerson(where, doc);
    const expected = basename(name, ".json");
    if (person.name !== expected) {
      throw new UsersFileError(
        `${where.at(doc)}: the file of '${person.name}' must be named ${person.name}.json, not ${name}`,
      );
    }
    return person;
  });
}

/** The people of a users file's text: `users:` a list of `{name, token_sha256, may_resolve?}`. */
export function readUsersFile(file: string, text: string): Person[] {
  const where = new Where(file, text);
  const root = where.parse();
  if (!isMap(root)) throw new UsersFileError(`${where.at(root)}: expected a mapping with a 'users' list`);
  let users: Node | null = null;
  for (const pair of root.items) {
    const key = scalarKey(where, pair.key);
    if (key !== "users")
      throw new UsersFileError(`${where.at(pair.key as Node | null)}: unknown key '${key}' (only 'users')`);
    users = (pair.value as Node | null) ?? null;
  }
  if (users === null || !isSeq(users)) {
    throw new UsersFileError(`${where.at(users ?? root)}: 'users' must be a list of people`);
  }
  return users.items.map((item) => readPerson(where, item as Node));
}

function readPerson(where: Where, node: Node | null): Person {
  if (!isMap(node)) {
    throw new UsersFileError(`${where.at(node)}: a person is a mapping with 'name' and 'token_sha256'`);
  }
  let name: string | null = null;
  let digest: Buffer | null = null;
  let rules: MayResolve | null = null;
  for (const pair of node.items) {
    const key = scalarKey(where, pair.key);
    const value = (pair.value as Node | null) ?? null;
    if (key === "name") {
      const text = scalarString(where, value, "name");
      if (!NAME_PATTERN.test(text)) throw new UsersFileError(`${where.at(value)}: '${text}': ${NAME_RULE}`);
      name = text;
    } else if (key === "token_sha256") {
      const text = scalarString(where, value, "token_sha256");
      if (!/^[0-9a-fA-F]{64}$/.test(text)) {
        throw new UsersFileError(
          `${where.at(value)}: token_sha256 must be the sha256 of the token, 64 hex digits (never the token itself)`,
        );
      }
      digest = Buffer.from(text, "hex");
    } else if (key === "may_resolve") {
      rules = readMayResolve(where, value);
    } else if (key === "created") {
      scalarString(where, value, "created");
    } else {
      throw new UsersFileError(
        `${where.at(pair.key as Node | null)}: unknown key '${key}' (a person has name, token_sha256, may_resolve, created)`,
      );
    }
  }
  if (name === null) throw new UsersFileError(`${where.at(node)}: this person has no 'name'`);
  if (digest === null) throw new UsersFileError(`${where.at(node)}: '${name}' has no 'token_sha256'`);
  return { name, tokenSha256: digest, mayResolve: rules };
}

function readMayResolve(where: Where, node: Node | null): MayResolve {
  if (!isMap(node)) {
    throw new UsersFileError(`${where.at(node)}: may_resolve is a mapping with 'flows' and/or 'gates' lists`);
  }
  const lists: { flows: string[]; gates: string[] } = { flows: [], gates: [] };
  for (const pair of node.items) {
    const key = scalarKey(where, pair.key);
    if (key !== "flows" && key !== "gates") {
      throw new UsersFileError(
        `${where.at(pair.key as Node | null)}: unknown key '${key}' in may_resolve (flows, gates)`,
      );
    }
    const value = (pair.value as Node | null) ?? null;
    if (!isSeq(value))
      throw new UsersFileError(`${where.at(value)}: may_resolve.${key} must be a list of names`);
    lists[key] = value.items.map((item) => scalarString(where, item as Node, `a name in may_resolve.${key}`));
  }
  return lists;
}

function scalarKey(where: Where, node: unknown): string {
  return scalarString(where, node as Node | null, "a key");
}

function scalarString(where: Where, node: Node | null, what: string): string {
  if (!isScalar(node) || typeof node.value !== "string" || node.value === "") {
    throw new UsersFileError(`${where.at(node)}: ${what} must be a non-empty string`);
  }
  return node.value;
}

/** Positions in one file: `file:line:column`. */
class Where {
  private readonly lines = new LineCounter();

  constructor(
    private readonly file: string,
    private readonly text: string,
  ) {}

  parse(): Node | null {
    const doc = parseDocument(this.text, { lineCounter: this.lines, uniqueKeys: true });
    const error = doc.errors[0];
    if (error !== undefined) {
      const pos = error.linePos?.[0];
      const at = pos === undefined ? this.file : `${this.file}:${pos.line}:${pos.col}`;
      throw new UsersFileError(`${at}: ${error.message.split("\n")[0]}`);
    }
    return (doc.contents as Node | null) ?? null;
  }

  at(node: Node | null | undefined): string {
    const offset = node?.range?.[0];
    if (offset === undefined) return this.file;
    const { line, col } = this.lines.linePos(offset);
    return `${this.file}:${line}:${col}`;
  }
}
