// A file shipped inside the bundle (install/generated/): a hook script or a skill.
export interface BundledFile {
  /** The hook script's file name, or the skill's name (its folder under ~/.claude/skills). */
  readonly name: string;
  readonly text: string;
}
