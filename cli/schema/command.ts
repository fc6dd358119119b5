// `stratumc schema`: the JSON Schema of the spec format, for editors (2-space indentation).
import type { Command } from "commander";
import { specJsonSchema } from "../../checker/index";
import type { CommandContext } from "../command-context";

export function registerSchema(program: Command, ctx: CommandContext): void {
  program
    .command("schema")
    .description("print the JSON Schema of the .stratum.yaml format (for editors)")
    .action(() => {
      ctx.io.out(`${JSON.stringify(specJsonSchema(), null, 2)}\n`);
    });
}
