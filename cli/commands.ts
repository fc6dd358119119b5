// Every subcommand of `stratumc`, in the order `--help` lists them. Each module is imported only
// when its command is registered (a module reached through a dynamic import is initialised on
// first use, also in the bundle), so a command run by name loads nothing of the others.
import { CHECK_ENTRY, VALIDATE_ENTRY } from "./check-commands";
import type { CommandEntry } from "./command-table";
import { FUZZ_ENTRY } from "./explore-commands";

export const ALL_COMMANDS: readonly CommandEntry[] = [
  CHECK_ENTRY,
  VALIDATE_ENTRY,
  {
    words: ["explain"],
    stratumcOnly: false,
    load: async () => (await import("./explain/command")).registerExplain,
  },
  {
    words: ["schema"],
    stratumcOnly: false,
    load: async () => (await import("./schema/command")).registerSchema,
  },
  {
    words: ["graph"],
    stratumcOnly: false,
    load: async () => (await import("./graph/command")).registerGraph,
  },
  {
    words: ["compile"],
    stratumcOnly: false,
    load: async () => (await import("./compile/command")).registerCompile,
  },
  {
    words: ["query"],
    stratumcOnly: false,
    load: async () => (await import("./query/command")).registerQuery,
  },
  { words: ["gate"], stratumcOnly: false, load: async () => (await import("./gate/command")).registerGate },
  // `flows prune` is stratumc's own (docs/reference/runtime.md §21.2); stratum-mcp has no such command (docs/reference/runtime.md §21.1).
  { words: ["flows"], stratumcOnly: true, load: async () => (await import("./flows/command")).registerFlows },
  {
    words: ["serve", "mcp"],
    stratumcOnly: false,
    load: async () => (await import("./serve/command")).registerServe,
  },
  // The language server and the fuzzer are stratumc's own; stratum-mcp keeps the reference's command set.
  { words: ["init"], stratumcOnly: true, load: async () => (await import("./init/command")).registerInit },
  { words: ["lsp"], stratumcOnly: true, load: async () => (await import("./lsp/command")).registerLsp },
  FUZZ_ENTRY,
  // Scenario tests of specs (docs/guides/testing-a-spec.md) are stratumc's own.
  { words: ["test"], stratumcOnly: true, load: async () => (await import("./test/command")).registerTest },
  {
    words: ["replay"],
    stratumcOnly: true,
    load: async () => (await import("./replay/command")).registerReplay,
  },
  // The web page for people who watch flows and resolve gates is stratumc's own (docs/guides/ui.md).
  { words: ["ui"], stratumcOnly: true, load: async () => (await import("./ui/command")).registerUi },
  {
    words: ["install", "uninstall"],
    stratumcOnly: false,
    load: async () => (await import("./install/command")).registerInstall,
  },
  {
    words: ["eval"],
    stratumcOnly: false,
    load: async () => {
      const { registerEval } = await import("./eval/command");
      return (program, ctx) => registerEval(program, ctx.io, ctx.setExitCode);
    },
  },
];
