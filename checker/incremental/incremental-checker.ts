// Re-checks successive versions of one document (the language server's use): the result is
// exactly `checkSpec(text)`'s — same diagnostics, model, expression table — but work of the
// previous version is reused: expression parses (ParseCache) and, when the change lies inside one
// scalar and keeps the YAML token structure, the YAML tree (patched instead of reloaded: the
// `yaml` package's parse is about half of a check). Everything after the YAML tree runs as usual.
import { type CheckOptions, type CheckResult, checkSpecWith } from "../check-spec";
import type { Reporter, ReportInput } from "../report";
import type { RuleInfo } from "../rule";
import type { SpecSource } from "../source";
import { type LoadedYaml, loadYaml } from "../yaml/load";
import type { SpecNode } from "../yaml/nodes";
import { locateScalar } from "./locate";
import { ParseCache } from "./parse-cache";
import { editScalar } from "./scalar-edit";
import { changeBetween, changeDelta } from "./text-change";
import { patchTree } from "./tree-patch";

/** The last loaded tree, when a scalar change may patch it. */
interface Patchable {
  readonly text: string;
  readonly root: SpecNode;
}

/** How the YAML tree of the latest check was obtained (tests and the bench read it). */
export type YamlReuse = "patched" | "loaded";

export class IncrementalChecker {
  private readonly parses = new ParseCache();
  private patchable: Patchable | null = null;
  private lastReuse: YamlReuse = "loaded";

  constructor(private readonly options: CheckOptions = {}) {}

  /** How the latest check got its YAML tree. */
  get yamlReuse(): YamlReuse {
    return this.lastReuse;
  }

  check(text: string): CheckResult {
    this.parses.nextGeneration();
    return checkSpecWith(text, this.options, {
      loadYaml: (source, reporter) => this.load(source, reporter),
      parseExpression: this.parses.parse,
    });
  }

  private load(source: SpecSource, reporter: Reporter): LoadedYaml {
    let patched: SpecNode | null = null;
    try {
      patched = this.patch(source.text);
    } catch {
      // Defensive, like loadYaml itself: checking never throws; the full load then decides.
      patched = null;
    }
    if (patched !== null) {
      this.lastReuse = "patched";
      this.patchable = { text: source.text, root: patched };
      return { root: patched, ok: true };
    }
    this.lastReuse = "loaded";
    const counting = new CountingReporter(reporter);
    const loaded = loadYaml(source, counting);
    this.patchable =
      counting.count === 0 && loaded.ok && patchableText(source.text) && hasOnePlacePerNode(loaded.root)
        ? { text: source.text, root: loaded.root }
        : null;
    return loaded;
  }

  /** The previous tree patched for `text`, or null when it must be loaded. */
  private patch(text: string): SpecNode | null {
    const previous = this.patchable;
    if (previous === null || !patchableText(text)) return null;
    if (previous.text === text) return previous.root;
    const change = changeBetween(previous.text, text);
    const target = locateScalar(previous.root, change);
    if (target === null) return null;
    const edited = editScalar(target, change, previous.text, text);
    if (edited === null) return null;
    return patchTree(target.path, edited.scalar, edited.name, target.scalar.range, changeDelta(change), text);
  }
}

/**
 * Texts whose tree may be patched: no CR (the loader rewrites lone CRs) and no `<<` (merge keys
 * copy entries between mappings; a merged entry has two places).
 */
function patchableText(text: string): boolean {
  return !text.includes("\r") && !text.includes("<<");
}

/** No node reached twice (an alias shares its anchor's node): a patch must change each node once. */
function hasOnePlacePerNode(root: SpecNode): boolean {
  const seen = new Set<SpecNode>();
  const stack: SpecNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as SpecNode;
    if (seen.has(node)) return false;
    seen.add(node);
    if (node.kind === "map") {
      for (const e of node.entries) stack.push(e.key, e.value);
    } else if (node.kind === "seq") {
      for (const item of node.items) stack.push(item);
    }
  }
  return true;
}

/** Counts what the YAML phase reports: a tree whose load reported anything is never patched. */
class CountingReporter implements Reporter {
  count = 0;
  constructor(private readonly inner: Reporter) {}
  report(rule: RuleInfo, input: ReportInput): void {
    this.count++;
    this.inner.report(rule, input);
  }
}
