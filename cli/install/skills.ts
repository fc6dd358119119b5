// The bundled skills in ~/.claude/skills/<name>/SKILL.md (runtime.md §22.1 step 5, §22.2 step 3)
// and the manifest ~/.claude/skills/.stratum-skills.json naming the skills we installed, so that a
// skill dropped from the bundle is removed by the next install and every skill by uninstall.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { exists, readJsonFileArray, readTextOrNull, removeFile, writeFileAtomic } from "./files";
import { SKILLS } from "./generated/skills";
import { displayHomePath } from "./paths";
import type { Report } from "./report";

export const SKILLS_MANIFEST = ".stratum-skills.json";

/**
 * Only names of this shape are ever deleted: a manifest edited by hand (`..`, `/`, another tool's
 * skill) must not make uninstall remove anything but a Stratum skill folder.
 */
const SKILL_NAME = /^stratum-[a-z0-9][a-z0-9-]*$/;

export function installSkills(skillsDir: string, home: string, report: Report): void {
  for (const { name, text } of SKILLS) {
    const path = join(skillsDir, name, "SKILL.md");
    const current = readTextOrNull(path);
    const shown = displayHomePath(join(skillsDir, name), home);
    if (current === text) {
      report.item(shown, "up to date", false);
      continue;
    }
    writeFileAtomic(path, text);
    report.item(shown, current === null ? "installed" : "updated", true);
  }
  const bundled = new Set(SKILLS.map((skill) => skill.name));
  for (const name of manifestNames(skillsDir)) {
    if (bundled.has(name)) continue;
    const dir = join(skillsDir, name);
    if (!exists(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
    report.item(displayHomePath(dir, home), "removed (no longer bundled)", true);
  }
  // The manifest is bookkeeping: rewriting it is not a change the user has to act on.
  const manifest = `${JSON.stringify([...bundled], null, 2)}\n`;
  const manifestPath = join(skillsDir, SKILLS_MANIFEST);
  if (readTextOrNull(manifestPath) !== manifest) writeFileAtomic(manifestPath, manifest);
}

export function uninstallSkills(skillsDir: string, home: string, keep: boolean, report: Report): void {
  if (keep) report.item(displayHomePath(skillsDir, home), "kept (--keep-skills)", false);
  else {
    const names = [...new Set([...SKILLS.map((skill) => skill.name), ...manifestNames(skillsDir)])];
    for (const name of names) {
      const dir = join(skillsDir, name);
      const found = exists(dir);
      if (found) rmSync(dir, { recursive: true, force: true });
      report.item(displayHomePath(dir, home), found ? "removed" : "not found", found);
    }
  }
  removeFile(join(skillsDir, SKILLS_MANIFEST));
}

/** The skill names of the manifest that are safe to delete; none when it is missing or invalid. */
function manifestNames(skillsDir: string): string[] {
  const names = readJsonFileArray(join(skillsDir, SKILLS_MANIFEST));
  return names.filter((name): name is string => typeof name === "string" && SKILL_NAME.test(name));
}
