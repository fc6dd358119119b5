// The one configuration of the yaml package's composer: the loader (load.ts) and the incremental
// checker's one-scalar reparse (checker/incremental/scalar-edit.ts) must read YAML identically.
export const YAML_COMPOSE_OPTIONS = {
  schema: "failsafe",
  // Tags outside the failsafe schema stay unresolved (we convert !!int etc. ourselves and report
  // every other tag) instead of becoming binary data, sets or dates.
  resolveKnownTags: false,
  // Duplicate keys are a warning of ours (YAML-DUPLICATE-KEY), the last occurrence wins.
  uniqueKeys: false,
  prettyErrors: false,
  keepSourceTokens: true,
} as const;
