// The layering of ARCHITECTURE.md is enforced by `npm run check` (`npm run layers`): dependency-cruiser
// with the rules of .dependency-cruiser.cjs. This test proves the rules bite: in a scratch tree,
// every forbidden import is reported under the rule that forbids it (type-only imports included),
// every allowed one is not; and the real tree has no violation.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { IViolation } from "dependency-cruiser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG, layeringViolations, PRODUCT_FOLDERS, REPO } from "./cruise";

interface Probe {
  readonly from: string;
  readonly to: string;
  /** The rule that must report the import, or null when nothing may report it. */
  readonly rule: string | null;
}

/** One forbidden import per code map row, each type-only: `import type` is a dependency too. */
const CODE_MAP_PROBES: readonly (readonly [row: string, from: string, to: string])[] = [
  ["`stdlib/values/`", "stdlib/values/p.ts", "stdlib/types/target.ts"],
  ["`stdlib/regex/`", "stdlib/regex/p.ts", "stdlib/values/target.ts"],
  ["`checker/yaml/`", "checker/yaml/p.ts", "checker/messages.ts"],
  ["`interpreter/flow/`", "interpreter/flow/p.ts", "interpreter/store/target.ts"],
  ["`interpreter/limits.ts`", "interpreter/limits.ts", "interpreter/wire/target.ts"],
  ["`ui/page/`", "ui/page/p.ts", "ui/views.ts"],
];

/** The core imports no Node built-in module (one probe per core layer); the host and front ends may. */
const NODE_PROBES: readonly Probe[] = PRODUCT_FOLDERS.map((layer) => ({
  from: `${layer}/p-node.ts`,
  to: "node:fs",
  rule: CONFIG.CORE.includes(layer) ? "core-no-node-builtins" : null,
}));

const OTHER_PROBES: readonly Probe[] = [
  // Imports the layer order and the folder order forbid without a code map row of their own.
  { from: "stdlib/types/p.ts", to: "checker/target.ts", rule: "layer-stdlib" },
  { from: "grammar/p.ts", to: "interpreter/target.ts", rule: "layer-grammar" },
  { from: "checker/services/p.ts", to: "lsp/target.ts", rule: "layer-checker" },
  { from: "checker/schema/p.ts", to: "checker/model/target.ts", rule: "folder-order checker/schema/" },
  { from: "checker/rules/p.ts", to: "checker/spec-expr/target.ts", rule: "folder-order checker/rules/" },
  { from: "checker/graph/p.ts", to: "checker/spec-expr/target.ts", rule: "folder-order checker/graph/" },
  { from: "interpreter/api.ts", to: "mcp/target.ts", rule: "layer-interpreter" },
  {
    from: "interpreter/checks/p.ts",
    to: "interpreter/flow/target.ts",
    rule: "folder-order interpreter/checks/",
  },
  {
    from: "interpreter/store/p.ts",
    to: "interpreter/flow/target.ts",
    rule: "folder-order interpreter/store/",
  },
  { from: "interpreter/p-host.ts", to: "host/target.ts", rule: "layer-interpreter" },
  { from: "fuzzer/p.ts", to: "cli/target.ts", rule: "layer-fuzzer" },
  { from: "lsp/p.ts", to: "stdlib/values/target.ts", rule: "layer-lsp" },
  { from: "mcp/p.ts", to: "checker/index.ts", rule: "layer-mcp" },
  // What the code map's exceptions allow.
  { from: "ui/page/ok-types.ts", to: "ui/api-types.ts", rule: null },
  { from: "checker/yaml/ok-base.ts", to: "checker/base/target.ts", rule: null },
  { from: "checker/yaml/ok-rule.ts", to: "checker/rule.ts", rule: null },
  { from: "checker/yaml/ok-values.ts", to: "stdlib/values/target.ts", rule: null },
  { from: "fuzzer/ok-checker.ts", to: "checker/index.ts", rule: null },
  { from: "mcp/ok-fuzzer.ts", to: "fuzzer/index.ts", rule: null },
  { from: "mcp/ok-stdlib.ts", to: "stdlib/index.ts", rule: null },
  { from: "cli/ok-host.ts", to: "host/index.ts", rule: null },
  { from: "mcp/ok-host.ts", to: "host/index.ts", rule: null },
  { from: "ui/ok-host.ts", to: "host/index.ts", rule: null },
  { from: "install/ok-host.ts", to: "host/index.ts", rule: null },
  { from: "cli/ok-ui.ts", to: "ui/index.ts", rule: null },
  { from: "cli/ok-install.ts", to: "install/index.ts", rule: null },
  { from: "checker/ok-deep.ts", to: "stdlib/values/target.ts", rule: null },
  // The flow takes defaults from the IR, not from the checker's schema.
  {
    from: "interpreter/flow/p-schema.ts",
    to: "checker/schema/target.ts",
    rule: "code-map interpreter/flow/",
  },
  // Front ends, the fuzzer and host/ see other layers only through their entry points.
  { from: "cli/p-entry.ts", to: "interpreter/store/target.ts", rule: "entry-point cli/" },
  { from: "cli/p-entry-host.ts", to: "host/file-store/target.ts", rule: "entry-point cli/" },
  { from: "lsp/p-entry.ts", to: "checker/services/target.ts", rule: "entry-point lsp/" },
  { from: "mcp/p-entry.ts", to: "fuzzer/run/target.ts", rule: "entry-point mcp/" },
  { from: "ui/p-entry.ts", to: "host/file-store/target.ts", rule: "entry-point ui/" },
  { from: "install/p-entry.ts", to: "host/regular-file.ts", rule: "entry-point install/" },
  // Nothing reaches into ui/ or install/ but through their entry points.
  { from: "cli/p-entry-ui.ts", to: "ui/server.ts", rule: "entry-point cli/" },
  { from: "cli/p-entry-install.ts", to: "install/install.ts", rule: "entry-point cli/" },
  { from: "fuzzer/p-entry.ts", to: "checker/ir/target.ts", rule: "entry-point fuzzer/" },
  { from: "host/p-entry.ts", to: "interpreter/store/target.ts", rule: "entry-point host/" },
  // Sub-folders import only those before them in SUBFOLDER_ORDER, and every sub-folder is listed.
  { from: "checker/yaml/p-order.ts", to: "checker/model/target.ts", rule: "folder-order checker/yaml/" },
  { from: "checker/model/ok-order.ts", to: "checker/yaml/target.ts", rule: null },
  { from: "checker/unlisted/p.ts", to: "checker/ir/target.ts", rule: "folder-order checker/ (unlisted)" },
  {
    from: "checker/ir/p-unlisted.ts",
    to: "checker/unlisted/target.ts",
    rule: "folder-order checker/ (unlisted)",
  },
  // A cycle through two folders is reported; one inside a folder is not.
  { from: "checker/cycle.ts", to: "checker/ir/cycle.ts", rule: "no-cycle-between-folders" },
  { from: "checker/ir/cycle.ts", to: "checker/cycle.ts", rule: "no-cycle-between-folders" },
  { from: "checker/expr/cycle-a.ts", to: "checker/expr/cycle-b.ts", rule: null },
  { from: "checker/expr/cycle-b.ts", to: "checker/expr/cycle-a.ts", rule: null },
  // Nothing in the product imports tests.
  { from: "checker/p-test.ts", to: "test/target.ts", rule: "no-tests-in-product" },
];

/** Every pair of top-level folders, both ways: `layer-<from>` reports exactly the forbidden ones. */
function layerProbes(): Probe[] {
  const probes: Probe[] = [];
  for (const [layer, allowed] of Object.entries(CONFIG.LAYER_IMPORTS)) {
    for (const target of PRODUCT_FOLDERS) {
      if (target === layer) continue;
      const rule = allowed.includes(target) ? null : `layer-${layer}`;
      probes.push({ from: `${layer}/sub/layer-${target}.ts`, to: `${target}/sub/target.ts`, rule });
    }
  }
  return probes;
}

const codeMapProbes: Probe[] = CODE_MAP_PROBES.map(([row, from, to]) => ({
  from,
  to,
  rule: `code-map ${row.replaceAll("`", "")}`,
}));

let dir: string;
let found: readonly IViolation[];

/** The scratch tree: every probe's importing file and every imported file, nothing else. */
function writeTree(probes: readonly Probe[]): void {
  const files = new Map<string, string[]>();
  const lines = (path: string): string[] => {
    let l = files.get(path);
    if (l === undefined) {
      l = ["export const a = 1;", "export type X = number;"];
      files.set(path, l);
    }
    return l;
  };
  probes.forEach((p, i) => {
    const builtin = p.to.startsWith("node:");
    let spec = builtin ? p.to : relative(dirname(p.from), p.to).replace(/\.ts$/, "");
    if (!spec.startsWith(".") && !builtin) spec = `./${spec}`;
    if (!builtin) lines(p.to);
    lines(p.from).unshift(`import type { X as X${i} } from "${spec}";`);
  });
  for (const [path, l] of files) {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), `${l.join("\n")}\n`);
  }
}

const probes = [...layerProbes(), ...codeMapProbes, ...OTHER_PROBES, ...NODE_PROBES];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "stratumc-layers-"));
  writeTree(probes);
  found = await layeringViolations(dir, PRODUCT_FOLDERS);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The rules reported for a probe's import; a cycle is reported once, for one of its imports. */
const rulesOf = (p: Probe): string[] =>
  found
    .filter((v) => {
      const inCycle = (name: string): boolean => v.cycle?.some((m) => m.name === name) ?? false;
      return (v.from === p.from && v.to === p.to) || (inCycle(p.from) && inCycle(p.to));
    })
    .map((v) => v.rule.name);

describe("the layering rules of .dependency-cruiser.cjs bite", () => {
  it("every layer's forbidden imports are reported, and its allowed ones are not", () => {
    for (const p of layerProbes()) {
      const layerRules = rulesOf(p).filter((r) => r.startsWith("layer-"));
      expect({ probe: p, reported: layerRules }).toEqual({ probe: p, reported: p.rule ? [p.rule] : [] });
    }
  });

  it("every code map row forbids what its column says, type-only imports included", () => {
    expect(new Set(CODE_MAP_PROBES.map(([row]) => row))).toEqual(
      new Set(CONFIG.CODE_MAP.map((r) => r.folder)),
    );
    for (const p of codeMapProbes) expect(rulesOf(p)).toContain(p.rule);
  });

  it("every core layer is forbidden Node built-in modules, and a front end or the host is not", () => {
    for (const p of NODE_PROBES) {
      const reported = found.filter((v) => v.from === p.from).map((v) => v.rule.name);
      expect({ probe: p, reported }).toEqual({ probe: p, reported: p.rule === null ? [] : [p.rule] });
    }
    expect(CONFIG.CORE).toEqual(["stdlib", "grammar", "checker", "interpreter", "fuzzer"]);
  });

  it("every layer that must use entry points has its rule", () => {
    const probed = OTHER_PROBES.flatMap((p) => (p.rule?.startsWith("entry-point ") ? [p.rule] : []));
    expect(new Set(probed)).toEqual(new Set(CONFIG.ENTRY_POINT_USERS.map((l) => `entry-point ${l}/`)));
  });

  it("the folder order, the entry points, the cycle rule and the allowed exceptions", () => {
    for (const p of OTHER_PROBES) {
      const reported = rulesOf(p);
      if (p.rule === null) expect({ probe: p, reported }).toEqual({ probe: p, reported: [] });
      else expect({ probe: p, reported }).toEqual({ probe: p, reported: expect.arrayContaining([p.rule]) });
    }
  });
});

describe("the real tree", () => {
  it("has no layering violation", async () => {
    const violations = await layeringViolations(REPO, PRODUCT_FOLDERS);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 120_000);
});
