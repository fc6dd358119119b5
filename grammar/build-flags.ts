// Build-time flags. The esbuild bundle defines STRATUMC_BUNDLED as true (scripts/build.mjs); tests
// run the sources, where it is undefined, so Chevrotain's grammar validations stay on there and
// catch grammar mistakes, while the shipped CLI skips them (~30 ms of every cold start).
declare const STRATUMC_BUNDLED: boolean | undefined;

export const SKIP_GRAMMAR_VALIDATIONS: boolean = typeof STRATUMC_BUNDLED !== "undefined" && STRATUMC_BUNDLED;
