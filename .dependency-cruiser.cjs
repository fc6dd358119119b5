// The layering of ARCHITECTURE.md, in one place: `npm run check` runs dependency-cruiser with these
// rules, test/architecture/layers.test.ts proves each one reports a wrong import (and that the real
// tree has none), and test/architecture/code-map.test.ts keeps the code map's "imports" column equal
// to LAYER_IMPORTS and its "must not depend on" column equal to CODE_MAP below.
//
// Paths are relative to the repository root. Type-only imports are dependencies too: the swc parser
// reads the TypeScript source as written (TypeScript 7 has no JS API for dependency-cruiser's tsc
// parser, so swc is the parser that sees `import type`).

const LAYERS = [
  "stdlib",
  "grammar",
  "checker",
  "interpreter",
  "fuzzer",
  "host",
  "cli",
  "lsp",
  "mcp",
  "ui",
  "install",
];
const FRONT_ENDS = ["cli", "lsp", "mcp", "ui", "install"];

/** Each top-level folder and the top-level folders it may import (besides itself). */
const LAYER_IMPORTS = {
  stdlib: [],
  grammar: ["stdlib"],
  checker: ["stdlib", "grammar"],
  interpreter: ["stdlib", "grammar", "checker"],
  fuzzer: ["stdlib", "grammar", "checker", "interpreter"],
  host: ["stdlib", "grammar", "checker", "interpreter"],
  lsp: ["checker"],
  mcp: ["stdlib", "interpreter", "fuzzer", "host"],
  ui: ["checker", "interpreter", "host"],
  install: ["host"],
  cli: ["stdlib", "grammar", "checker", "interpreter", "fuzzer", "host", "lsp", "mcp", "ui", "install"],
};

const anyOf = (paths) => `^(${paths.join("|")})`;

/** The core: pure layers that reach the machine only through interfaces the host injects. */
const CORE = ["stdlib", "grammar", "checker", "interpreter", "fuzzer"];

/** The layers that use the others only through their entry points (`<layer>/index.ts`). */
const ENTRY_POINT_USERS = ["fuzzer", "host", ...FRONT_ENDS];
const FRONT_END_PATHS = FRONT_ENDS.map((f) => `${f}/`);

/**
 * The code map's rows that forbid something: `folder` is the row's first cell and `mustNotDependOn`
 * its last, exactly as ARCHITECTURE.md shows them; `from` is what the row covers and `to` (or
 * `toNot`: everything but) the paths it must not import. Only what LAYER_IMPORTS and SUBFOLDER_ORDER
 * do not already forbid has a row.
 */
const CODE_MAP = [
  {
    folder: "`stdlib/values/`",
    mustNotDependOn: "everything else",
    from: "^stdlib/values/",
    toNot: "^stdlib/values/",
  },
  {
    folder: "`stdlib/regex/`",
    mustNotDependOn: "everything else",
    from: "^stdlib/regex/",
    toNot: "^stdlib/regex/",
  },
  {
    folder: "`checker/yaml/`",
    mustNotDependOn: "everything but stdlib values, `checker/base/`, `rule.ts`, `report.ts` and `source.ts`",
    from: "^checker/yaml/",
    toNot: anyOf([
      "checker/yaml/",
      "stdlib/values/",
      "checker/base/",
      "checker/rule\\.ts$",
      "checker/report\\.ts$",
      "checker/source\\.ts$",
    ]),
  },
  {
    folder: "`interpreter/flow/`",
    // The flow reads defaults from the IR, which applies them; never from the checker's schema.
    mustNotDependOn: "engine, store, `checker/schema/`, front ends",
    from: "^interpreter/flow/",
    to: anyOf(["interpreter/engine/", "interpreter/store/", "checker/schema/", ...FRONT_END_PATHS]),
  },
  {
    folder: "`interpreter/limits.ts`",
    mustNotDependOn: "everything but stdlib values",
    from: "^interpreter/limits\\.ts$",
    toNot: anyOf(["stdlib/values/"]),
  },
  {
    folder: "`ui/page/`",
    mustNotDependOn: "everything but the page and `ui/api-types.ts`",
    from: "^ui/page/",
    toNot: anyOf(["ui/page/", "ui/api-types\\.ts$"]),
  },
];

const LAYER_ORDER =
  "imports go one way: stdlib ← grammar ← checker ← interpreter ← fuzzer ← {lsp, mcp, ui, install} ← cli, host only for front ends";

const layerRules = Object.entries(LAYER_IMPORTS).flatMap(([layer, allowed]) => {
  const forbidden = LAYERS.filter((l) => l !== layer && !allowed.includes(l));
  if (forbidden.length === 0) return [];
  return [
    {
      name: `layer-${layer}`,
      severity: "error",
      comment: `Layering (ARCHITECTURE.md): ${layer}/ must not import ${forbidden.join(", ")}; ${LAYER_ORDER}.`,
      from: { path: `^${layer}/` },
      to: { path: anyOf(forbidden.map((l) => `${l}/`)) },
    },
  ];
});

// Front ends, the fuzzer and the host adapters see another layer only through its `index.ts`: a
// layer's public surface is its entry point, not whatever someone imported last.
const entryPointRules = ENTRY_POINT_USERS.map((layer) => ({
  name: `entry-point ${layer}/`,
  severity: "error",
  comment: `${layer}/ imports another layer only through its entry point (<layer>/index.ts); export what it needs there.`,
  from: { path: `^${layer}/` },
  to: { path: `^(${LAYERS.filter((l) => l !== layer).join("|")})/(?!index\\.ts$)` },
}));

const codeMapRules = CODE_MAP.map((row) => ({
  name: `code-map ${row.folder.replaceAll("`", "")}`,
  severity: "error",
  comment: `ARCHITECTURE.md code map: ${row.folder.replaceAll("`", "")} must not depend on ${row.mustNotDependOn.replaceAll("`", "")}.`,
  from: { path: row.from },
  // Only our own modules: npm packages and Node built-ins are not layers.
  to: row.to
    ? { path: row.to }
    : { pathNot: row.toNot, path: anyOf([...LAYERS, "test", "bench", "scripts"].map((l) => `${l}/`)) },
}));

/**
 * Each layer's sub-folders from the bottom up: a sub-folder imports only sub-folders before it, so
 * the sub-folders of a layer cannot form a cycle (the layer's top-level files are not in the order;
 * cycles through them are `no-cycle-between-folders`). A sub-folder missing here is reported as
 * soon as it imports a sibling or a sibling imports it.
 */
const SUBFOLDER_ORDER = {
  stdlib: ["values", "regex", "types", "builtins"],
  checker: [
    "base",
    "expr",
    "fuzz",
    "yaml",
    "schema",
    "model",
    "kinds",
    "rules",
    "graph",
    "spec-expr",
    "portable",
    "ir",
    "control",
    "outline",
    "incremental",
    "services",
    "scenario",
  ],
  interpreter: [
    "wire",
    "base",
    "eval",
    "checks",
    "store",
    "workspace",
    "speckit",
    "flow",
    "engine",
    "query",
    "scenario",
  ],
  fuzzer: ["values", "run", "explore", "replay-flow"],
  host: ["file-store", "pg-store", "tracing", "parallel", "agent-run", "result-cache"],
  cli: [
    "format",
    "check",
    "validate",
    "graph",
    "eval",
    "fuzz",
    "replay",
    "compile",
    "mcp-commands",
    "install",
    "serve",
    "explain",
    "flows",
    "gate",
    "init",
    "lsp",
    "query",
    "schema",
    "ui",
    "test",
  ],
};

const orderRules = Object.entries(SUBFOLDER_ORDER).flatMap(([layer, order]) => [
  ...order.slice(0, -1).map((sub, i) => ({
    name: `folder-order ${layer}/${sub}/`,
    severity: "error",
    comment: `${layer}/${sub}/ imports only the sub-folders of ${layer}/ before it in SUBFOLDER_ORDER (.dependency-cruiser.cjs): ${order.slice(0, i).join(", ") || "none"}.`,
    from: { path: `^${layer}/${sub}/` },
    to: { path: anyOf(order.slice(i + 1).map((s) => `${layer}/${s}/`)) },
  })),
  {
    name: `folder-order ${layer}/ (unlisted)`,
    severity: "error",
    comment: `A sub-folder of ${layer}/ that imports a sibling or is imported by one must be placed in SUBFOLDER_ORDER (.dependency-cruiser.cjs).`,
    from: { path: `^(${layer}/(?!(${order.join("|")})/)[^/]+/)` },
    to: { path: `^${layer}/[^/]+/`, pathNot: "^$1" },
  },
  {
    name: `folder-order ${layer}/ (unlisted)`,
    severity: "error",
    comment: `A sub-folder of ${layer}/ that imports a sibling or is imported by one must be placed in SUBFOLDER_ORDER (.dependency-cruiser.cjs).`,
    from: { path: `^${layer}/[^/]+/` },
    to: { path: `^${layer}/(?!(${order.join("|")})/)[^/]+/` },
  },
]);

/** A layer folder's unit for cycles: its sub-folder (`checker/yaml/`), or the layer itself for its top-level files. */
const FOLDER_OF_MODULE = `^(${LAYERS.join("|")})/[^/]+/`;
const TOP_LEVEL_FILE = `^(${LAYERS.join("|")})/[^/]+$`;

module.exports = {
  forbidden: [
    ...layerRules,
    ...entryPointRules,
    {
      name: "no-tests-in-product",
      severity: "error",
      comment: "Product code never imports tests, benchmarks or build scripts.",
      from: { path: anyOf(LAYERS.map((l) => `${l}/`)) },
      to: { path: "^(test|bench|scripts)/" },
    },
    ...codeMapRules,
    {
      name: "core-no-node-builtins",
      severity: "error",
      comment: `The core (${CORE.join(", ")}) does no I/O of its own: it imports no Node built-in module; the host injects what it needs.`,
      from: { path: anyOf(CORE.map((l) => `${l}/`)) },
      to: { dependencyTypes: ["core"] },
    },
    ...orderRules,
    {
      // A module cycle that leaves the folder it starts in; cycles between files of one folder are
      // allowed (they are one unit). Every cycle between folders has an edge out of a sub-folder,
      // and that edge is reported here.
      name: "no-cycle-between-folders",
      severity: "error",
      comment: "Folders depend on each other one way: this import closes a cycle through another folder.",
      from: { path: FOLDER_OF_MODULE },
      to: { circular: true, via: { pathNot: "^$0" } },
    },
    {
      name: "no-cycle-between-folders",
      severity: "error",
      comment: "Folders depend on each other one way: this import closes a cycle through another folder.",
      from: { path: TOP_LEVEL_FILE },
      to: { circular: true, via: { pathNot: "^$1/[^/]+$" } },
    },
  ],
  options: {
    parser: "swc",
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    enhancedResolveOptions: {
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json"],
      conditionNames: ["import", "require", "node", "default"],
      exportsFields: ["exports"],
    },
  },
};

// The tables the rules are made from, for the architecture tests; not enumerable, as
// dependency-cruiser refuses unknown keys in its configuration.
Object.defineProperty(module.exports, "LAYER_IMPORTS", { value: LAYER_IMPORTS, enumerable: false });
Object.defineProperty(module.exports, "ENTRY_POINT_USERS", { value: ENTRY_POINT_USERS, enumerable: false });
Object.defineProperty(module.exports, "CODE_MAP", { value: CODE_MAP, enumerable: false });
Object.defineProperty(module.exports, "CORE", { value: CORE, enumerable: false });
Object.defineProperty(module.exports, "SUBFOLDER_ORDER", { value: SUBFOLDER_ORDER, enumerable: false });
