// `fuzz`, `replay` and `check --deep` load the fuzzer (and fast-check under it) only when they run:
// a module reached through a dynamic import is initialised on first use, so plain `check` — and
// the startup snapshot it starts from — never initialises it (as host/compose-lazily.ts does for
// the engine). Nothing else in cli/ may import a value from fuzzer/ (types only), except
// fuzzer/finding-json.ts, which imports nothing but types.
export type FuzzerModule = typeof import("../fuzzer/index");

export async function loadFuzzer(): Promise<FuzzerModule> {
  return import("../fuzzer/index");
}
