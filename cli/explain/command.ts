// `stratumc explain CODE` prints a rule's documentation; `stratumc explain --list` lists every code
// with its title. Codes are matched case-insensitively; an unknown code is a usage error with a
// did-you-mean and the way to list every code (unknown-code.ts).
import type { Command } from "commander";
import { ruleDocAnchor, suggest } from "../../checker/index";
import type { CommandContext } from "../command-context";
import { UsageError } from "../exit-codes";
import { docsPointer } from "../installed-docs";
import { type CliRule, cliRules } from "../rules";
import { unknownCodeMessage } from "./unknown-code";

export function registerExplain(program: Command, ctx: CommandContext): void {
  program
    .command("explain")
    .description("explain a diagnostic code (or list every code with --list)")
    .argument("[code]", "a diagnostic code such as SPEC-DEPENDS-ON-UNKNOWN (any case)")
    .option("--list", "list every code with its title")
    .action((code: string | undefined, options: { list?: boolean }) => {
      const rules = cliRules();
      if (options.list === true) {
        if (code !== undefined) throw new UsageError("give either a code or --list, not both");
        ctx.io.out(formatList(rules));
        return;
      }
      if (code === undefined) throw new UsageError("missing code (or --list)");
      const rule = rules.find((r) => r.code === code.toUpperCase());
      if (rule === undefined) {
        const codes = rules.map((r) => r.code);
        const close = suggest(code.toUpperCase(), codes);
        throw new UsageError(unknownCodeMessage(code, close?.candidate ?? null, codes, ctx.programName));
      }
      ctx.io.out(formatRule(rule));
      ctx.io.out(
        `\n${docsPointer("reference/rules.md", { title: rule.code, anchor: ruleDocAnchor(rule.code) })}`,
      );
    });
}

export function formatList(rules: readonly CliRule[]): string {
  const width = Math.max(...rules.map((r) => r.code.length));
  return rules.map((r) => `${r.code.padEnd(width)}  ${r.title}\n`).join("");
}

export function formatRule(rule: CliRule): string {
  const out = [
    `${rule.code}: ${rule.title}`,
    "",
    `severity:   ${rule.severity}`,
    `family:     ${rule.family}`,
    `error type: ${rule.errorType}`,
    "",
    rule.doc,
  ];
  if (rule.fix !== undefined) out.push("", `Automatic fix: ${rule.fix}`);
  if (rule.example !== undefined) {
    out.push("", "Example (reported):", indent(rule.example.bad));
    if (rule.example.good !== undefined) out.push("", "Example (fixed):", indent(rule.example.good));
  }
  return `${out.join("\n")}\n`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`.trimEnd())
    .join("\n");
}
