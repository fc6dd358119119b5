// The bundled skills in ~/.claude/skills/<name>/SKILL.md (docs/reference/runtime.md §22.1 step 5, docs/reference/runtime.md §22.2 step 3)
// and the manifest ~/.claude/skills/.stratum-skills.json naming the skills we installed, so that a
// skill dropped from the bundle is removed by the next install and every skill by uninstall.
import { join } from "node:path";
import type { Changes } from "./changes";
import { exists, jsonText, readJsonFileArray } from "./files";
import { SKILLS } from "./generated/skills";
import { displayHomePath } from "./paths";
import type { Report } from "./report";

const SKILLS_MANIFEST = ".stratum-skills.json";

/**
 * Only names of this shape are ever deleted: a manifest edited by hand (`..`, `/`, another tool's
 * skill) must not make uninstall remove anything but a Stratum skill folder.
 */
const SKILL_NAME = /^stratum-[a-z0-9][a-z0-9-]*$/;

export function planInstallSkills(skillsDir: string, home: string, changes: Changes, report: Report): void {
  for (const { name, text } of SKILLS) {
    const path = join(skillsDir, name, "SKILL.md");
    const current = changes.read(path);
    const shown = displayHomePath(join(skillsDir, name), home);
    if (current?.equals(Buffer.from(text))) {
      report.item(shown, "up to date", false);
      continue;
    }
    changes.set(path, text);
    report.item(shown, current === null ? "installed" : "updated", true);
  }
  const bundled = new Set(SKILLS.map((skill) => skill.name));
  for (const name of manifestNames(skillsDir)) {
    if (bundled.has(name)) continue;
    const dir = join(skillsDir, name);
    if (!exists(dir)) continue;
    changes.removeTree(dir);
    report.item(displayHomePath(dir, home), "removed (no longer bundled)", true);
  }
  // The manifest is bookkeeping: rewriting it is not a change the user has to act on, but it is
  // a file written, so it is named.
  const manifest = join(skillsDir, SKILLS_MANIFEST);
  if (changes.set(manifest, jsonText([...bundled])))
    report.item(
      displayHomePath(manifest, home),
      "skills manifest written (the skills uninstall removes)",
      false,
    );
}

/**
 * Plans the removal of the skills (unless `keep`) and of the manifest. `restore` gives the bytes a
 * SKILL.md had before install when the install record knows them (then only that file goes back
 * as it was, and the folder stays when it was there before).
 */
export function planUninstallSkills(
  skillsDir: string,
  home: string,
  keep: boolean,
  changes: Changes,
  report: Report,
  restore: (path: string) => { readonly bytes: Buffer | null; readonly mode: number | null } | undefined,
): void {
  if (keep) report.item(displayHomePath(skillsDir, home), "kept (--keep-skills)", false);
  else {
    const names = [...new Set([...SKILLS.map((skill) => skill.name), ...manifestNames(skillsDir)])];
    for (const name of names) {
      const dir = join(skillsDir, name);
      const file = join(dir, "SKILL.md");
      const previous = restore(file);
      if (previous !== undefined) {
        changes.set(file, previous.bytes, previous.mode ?? undefined);
        report.item(displayHomePath(dir, home), previous.bytes === null ? "removed" : "restored", true);
        continue;
      }
      // What was never there gets no line (uninstall names what it removed).
      if (!exists(dir)) continue;
      changes.removeTree(dir);
      report.item(displayHomePath(dir, home), "removed", true);
    }
  }
  changes.set(join(skillsDir, SKILLS_MANIFEST), null);
}

/** The skill names of the manifest that are safe to delete; none when it is missing or invalid. */
function manifestNames(skillsDir: string): string[] {
  const names = readJsonFileArray(join(skillsDir, SKILLS_MANIFEST));
  return names.filter((name): name is string => typeof name === "string" && SKILL_NAME.test(name));
}
