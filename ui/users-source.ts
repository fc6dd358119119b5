// The people of `--users` as the file or directory says now (docs/guides/ui-people.md): re-read when
// it changes, so `stratumc ui add-user` (a new person, or `--replace` for a new token) and removing a
// person's entry take effect without restarting the server. Checked at most once a second; an edit
// that does not load keeps the people as they were and is reported once.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { People, PeopleSource } from "./users";
import { loadPeople, UsersFileError } from "./users-file";

const CHECK_MS = 1_000;

export class UsersSource implements PeopleSource {
  private people: People;
  private stamp: string;
  private checked: number;

  /** Throws UsersFileError when the users do not load at start. */
  constructor(
    private readonly location: string,
    private readonly logError: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.stamp = stampOf(location);
    this.people = loadPeople(location);
    this.checked = now();
  }

  current(): People {
    const now = this.now();
    if (now - this.checked < CHECK_MS) return this.people;
    this.checked = now;
    const stamp = stampOf(this.location);
    if (stamp === this.stamp) return this.people;
    this.stamp = stamp;
    try {
      this.people = loadPeople(this.location);
    } catch (e) {
      if (!(e instanceof UsersFileError)) throw e;
      this.logError(`${e.message}; the people stay as they were until it is fixed`);
    }
    return this.people;
  }
}

/** What changes when the file, or any person's file of the directory, is written, added or removed. */
function stampOf(location: string): string {
  try {
    const top = statSync(location);
    if (!top.isDirectory()) return `${top.ino}:${top.mtimeMs}:${top.size}`;
    return readdirSync(location)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => {
        const st = statSync(join(location, name));
        return `${name}:${st.ino}:${st.mtimeMs}:${st.size}`;
      })
      .join("|");
  } catch (e) {
    return `unreadable:${(e as NodeJS.ErrnoException).code ?? ""}`;
  }
}
