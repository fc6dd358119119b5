// Named reviewers (ui/users*.ts): the users file and directory with their located errors, the
// sha256 of tokens and the constant-time search over every person, may_resolve, add-user's files
// (only digests, mode 0600, a YAML file's comments kept) and the re-reading of a changed file.
import * as crypto from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UiAuth } from "../../ui/auth";
import { mayResolve, People, refusalMessage, tokenSha256Hex } from "../../ui/users";
import { addUser } from "../../ui/users-add";
import { loadPeople, readUsersFile, UsersFileError } from "../../ui/users-file";
import { UsersSource } from "../../ui/users-source";

vi.mock("node:crypto", async (original) => {
  const actual = await original<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const ADA = "ada-token-0123456789abcdefghijkl";
const BOB = "bob-token-0123456789abcdefghijkl";

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "stratumc-users-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsersFileError);
    return (e as Error).message;
  }
  throw new Error("no error");
}

const GOOD = `# the reviewers
users:
  - name: ada
    token_sha256: ${tokenSha256Hex(ADA)}
  - name: bob
    token_sha256: ${tokenSha256Hex(BOB)}
    may_resolve:
      flows: [release]
      gates: [security_review]
`;

describe("the users file", () => {
  it("reads people from YAML and the same from JSON", () => {
    const yaml = readUsersFile("u.yaml", GOOD);
    expect(yaml.map((p) => [p.name, p.tokenSha256.toString("hex"), p.mayResolve])).toEqual([
      ["ada", tokenSha256Hex(ADA), null],
      ["bob", tokenSha256Hex(BOB), { flows: ["release"], gates: ["security_review"] }],
    ]);
    const json = JSON.stringify({
      users: [
        { name: "ada", token_sha256: tokenSha256Hex(ADA) },
        {
          name: "bob",
          token_sha256: tokenSha256Hex(BOB),
          may_resolve: { flows: ["release"], gates: ["security_review"] },
        },
      ],
    });
    expect(readUsersFile("u.json", json)).toEqual(yaml);
  });

  it.each([
    ["users: [", /^u\.yaml:1:\d+: /],
    ["people: []", /^u\.yaml:1:1: unknown key 'people' \(only 'users'\)$/],
    ["users: 3", /^u\.yaml:1:8: 'users' must be a list of people$/],
    ["users:\n  - name: ada\n", /^u\.yaml:2:5: 'ada' has no 'token_sha256'$/],
    [
      `users:\n  - name: ada\n    token_sha256: ${ADA}\n`,
      /^u\.yaml:3:19: token_sha256 must be the sha256 of the token, 64 hex digits \(never the token itself\)$/,
    ],
    [
      `users:\n  - name: "a b"\n    token_sha256: ${tokenSha256Hex(ADA)}\n`,
      /^u\.yaml:2:11: 'a b': a name is 1 to 64/,
    ],
    [
      `users:\n  - name: ada\n    token: x\n`,
      /^u\.yaml:3:5: unknown key 'token' \(a person has name, token_sha256, may_resolve, created\)$/,
    ],
    [`users:\n  - token_sha256: ${tokenSha256Hex(ADA)}\n`, /^u\.yaml:2:5: this person has no 'name'$/],
    [
      `users:\n  - name: ada\n    token_sha256: ${tokenSha256Hex(ADA)}\n    may_resolve: {teams: [x]}\n`,
      /^u\.yaml:4:19: unknown key 'teams' in may_resolve \(flows, gates\)$/,
    ],
    [`users:\n  - name: ada\n    name: bob\n`, /^u\.yaml:3:5: Map keys must be unique/],
  ])("says where %j is wrong", (text, expected) => {
    expect(errorOf(() => readUsersFile("u.yaml", text))).toMatch(expected);
  });

  it("refuses a file without people, a name twice and one token for two people", () => {
    const file = join(dir, "u.yaml");
    writeFileSync(file, "users: []\n");
    expect(errorOf(() => loadPeople(file))).toContain("no people in it; add one with `stratumc ui add-user");
    writeFileSync(
      file,
      `users:\n  - {name: ada, token_sha256: ${tokenSha256Hex(ADA)}}\n  - {name: ada, token_sha256: ${tokenSha256Hex(BOB)}}\n`,
    );
    expect(errorOf(() => loadPeople(file))).toBe(`${file}: 'ada' is there twice`);
    writeFileSync(
      file,
      `users:\n  - {name: ada, token_sha256: ${tokenSha256Hex(ADA)}}\n  - {name: bob, token_sha256: ${tokenSha256Hex(ADA)}}\n`,
    );
    expect(errorOf(() => loadPeople(file))).toBe(`${file}: 'bob' has the token of another person`);
    expect(errorOf(() => loadPeople(join(dir, "missing.yaml")))).toContain("cannot read it (ENOENT)");
  });

  it("a directory's person file must be named after the person", () => {
    writeFileSync(join(dir, "bob.json"), JSON.stringify({ name: "ada", token_sha256: tokenSha256Hex(ADA) }));
    expect(errorOf(() => loadPeople(dir))).toBe(
      `${join(dir, "bob.json")}:1:1: the file of 'ada' must be named ada.json, not bob.json`,
    );
  });
});

describe("finding the person of a token", () => {
  it("finds each person by their token and nobody by any other string", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 6 }),
        fc.string(),
        (tokens, other) => {
          const people = new People(
            tokens.map((t, i) => ({
              name: `p${i}`,
              tokenSha256: Buffer.from(tokenSha256Hex(t), "hex"),
              mayResolve: null,
            })),
          );
          for (const [i, t] of tokens.entries()) expect(people.find(t)?.name).toBe(`p${i}`);
          if (!tokens.includes(other)) expect(people.find(other)).toBeNull();
        },
      ),
    );
  });

  it("compares the digest with every person's in constant time, also after a match", () => {
    const people = new People(
      [ADA, BOB, "carol-token-0123456789abcdef"].map((t, i) => ({
        name: `p${i}`,
        tokenSha256: Buffer.from(tokenSha256Hex(t), "hex"),
        mayResolve: null,
      })),
    );
    const compare = vi.mocked(crypto.timingSafeEqual);
    compare.mockClear();
    expect(people.find(ADA)?.name).toBe("p0");
    expect(compare).toHaveBeenCalledTimes(3);
    compare.mockClear();
    expect(people.find("nobody")).toBeNull();
    expect(compare).toHaveBeenCalledTimes(3);
  });

  it("signs a person in by their token, and the single token as nobody in particular", () => {
    const people = loadPeopleText(GOOD);
    const auth = new UiAuth(people);
    expect(auth.login(ADA)?.name).toBe("ada");
    expect(auth.login(BOB)?.mayResolve).toEqual({ flows: ["release"], gates: ["security_review"] });
    expect(auth.login(tokenSha256Hex(ADA))).toBeNull(); // the digest is no token
    expect(auth.newSession(BOB).name).toBe("bob");
    const single = new UiAuth(ADA);
    expect(single.login(ADA)).toEqual({ name: null, mayResolve: null });
    expect(single.newSession(ADA).name).toBeNull();
  });
});

function loadPeopleText(text: string): People {
  const file = join(dir, "people.yaml");
  writeFileSync(file, text);
  return loadPeople(file);
}

describe("may_resolve", () => {
  it("allows every gate without rules, and the listed flows or gate ids with them", () => {
    const anyone = { name: "ada", mayResolve: null };
    const bob = { name: "bob", mayResolve: { flows: ["release"], gates: ["security_review"] } };
    expect(mayResolve(anyone, "main", "approve")).toBe(true);
    expect(mayResolve(bob, "release", "approve")).toBe(true);
    expect(mayResolve(bob, "main", "security_review")).toBe(true);
    expect(mayResolve(bob, "main", "approve")).toBe(false);
    expect(refusalMessage(bob, "main", "approve")).toBe(
      "bob may not resolve gate 'approve' of flow 'main': the users file lets bob resolve the gates of flows release and the gates security_review (may_resolve). Someone who may resolve it must decide.",
    );
    expect(
      refusalMessage({ name: "eve", mayResolve: { flows: [], gates: [] } }, "main", "approve"),
    ).toContain("lets eve resolve no gate");
  });
});

describe("add-user", () => {
  it("writes DIR/NAME.json with the token's sha256 only, mode 0600 in a 0700 directory", () => {
    const people = join(dir, "people");
    const added = addUser(people, "ada", { replace: false, now: () => new Date("2026-01-02T03:04:05Z") });
    expect(added.file).toBe(join(people, "ada.json"));
    expect(added.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const text = readFileSync(added.file, "utf8");
    expect(text).not.toContain(added.token);
    expect(JSON.parse(text)).toEqual({
      name: "ada",
      token_sha256: tokenSha256Hex(added.token),
      created: "2026-01-02T03:04:05.000Z",
    });
    expect(statSync(added.file).mode & 0o777).toBe(0o600);
    expect(statSync(people).mode & 0o777).toBe(0o700);
    expect(loadPeople(people).find(added.token)?.name).toBe("ada");
  });

  it("refuses a name already there and a bad name; --replace gives a new token", () => {
    const people = join(dir, "people");
    const first = addUser(people, "ada", { replace: false });
    expect(errorOf(() => addUser(people, "ada", { replace: false }))).toContain(
      "'ada' is already there; --replace",
    );
    expect(errorOf(() => addUser(people, "../x", { replace: false }))).toContain("a name is 1 to 64");
    const second = addUser(people, "ada", { replace: true });
    expect(second.replaced).toBe(true);
    const now = loadPeople(people);
    expect(now.find(first.token)).toBeNull();
    expect(now.find(second.token)?.name).toBe("ada");
  });

  it("adds to a YAML file keeping its comments and people, and to a JSON file", () => {
    const yaml = join(dir, "team.yaml");
    writeFileSync(yaml, GOOD);
    chmodSync(yaml, 0o644);
    const carol = addUser(yaml, "carol", { replace: false });
    const text = readFileSync(yaml, "utf8");
    expect(text).toContain("# the reviewers");
    expect(text).toContain("flows: [ release ]");
    expect(statSync(yaml).mode & 0o777).toBe(0o600);
    expect(loadPeople(yaml).people.map((p) => p.name)).toEqual(["ada", "bob", "carol"]);
    expect(loadPeople(yaml).find(carol.token)?.name).toBe("carol");
    const json = join(dir, "team.json");
    const dan = addUser(json, "dan", { replace: false });
    expect(JSON.parse(readFileSync(json, "utf8")).users[0].token_sha256).toBe(tokenSha256Hex(dan.token));
    writeFileSync(yaml, "users: [\n");
    expect(errorOf(() => addUser(yaml, "erin", { replace: false }))).toMatch(/^.*team\.yaml:\d+:\d+: /);
  });
});

describe("a changed users file", () => {
  it("is read again within a second: new people sign in, a replaced token and its sessions stop working", () => {
    const people = join(dir, "people");
    const ada = addUser(people, "ada", { replace: false });
    let now = 1_000_000;
    const errors: string[] = [];
    const source = new UsersSource(
      people,
      (m) => errors.push(m),
      () => now,
    );
    const auth = new UiAuth(source, () => now);
    const session = auth.newSession(ada.token).session;
    const request = { headers: { authorization: `Bearer ${session}` } } as Parameters<
      UiAuth["reviewerOf"]
    >[0];
    expect(auth.reviewerOf(request)?.name).toBe("ada");
    const bob = addUser(people, "bob", { replace: false });
    expect(auth.login(bob.token)).toBeNull(); // not checked again yet
    now += 1_000;
    expect(auth.login(bob.token)?.name).toBe("bob");
    addUser(people, "ada", { replace: true });
    now += 1_000;
    expect(auth.reviewerOf(request)).toBeNull();
    expect(auth.login(ada.token)).toBeNull();
    // An edit that does not load keeps the people as they were, and says so.
    writeFileSync(join(people, "carol.json"), "{");
    now += 1_000;
    expect(auth.login(bob.token)?.name).toBe("bob");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("carol.json:");
    expect(errors[0]).toContain("the people stay as they were until it is fixed");
  });
});
