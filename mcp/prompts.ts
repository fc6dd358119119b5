// The bundled skills (assets/skills/<name>/SKILL.md, the ones `stratumc install` writes for Claude
// Code) as MCP prompts, so that any client can offer them (docs/guides/mcp-server-resources.md).
// A prompt's name is the skill's, its description the front matter's, its title the skill's first
// heading; prompts/get answers the skill's text without the front matter as one user message. The
// optional argument `request` (what to apply the skill to) replaces `$ARGUMENTS` where the skill
// has it, else it is added after the text.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  type Prompt,
} from "@modelcontextprotocol/sdk/types.js";
import { INVALID_PARAMS, rpcError } from "./resources/rpc-error";

/** A bundled skill: its folder name and the SKILL.md text. */
export interface SkillText {
  readonly name: string;
  readonly text: string;
}

/** The longest `request` argument taken, in characters. */
export const MAX_REQUEST_CHARS = 16 * 1024;

/** The longest prompt name an error message repeats. */
const MAX_ECHOED = 128;

const REQUEST_ARGUMENT = {
  name: "request",
  description: "What to apply the skill to (the user's request); optional",
  required: false,
};

interface SkillPrompt {
  readonly prompt: Prompt;
  readonly body: string;
}

/** The prompt of each skill, in the bundle's order. */
export function skillPrompts(skills: readonly SkillText[]): SkillPrompt[] {
  return skills.map(({ name, text }) => {
    const { fields, body } = splitFrontMatter(text);
    const heading = /^# (.+)$/m.exec(body)?.[1]?.trim();
    const description = fields.get("description");
    return {
      prompt: {
        name: fields.get("name") ?? name,
        ...(heading === undefined ? {} : { title: heading }),
        ...(description === undefined ? {} : { description }),
        arguments: [REQUEST_ARGUMENT],
      },
      body,
    };
  });
}

/** The skill's text for a request: `$ARGUMENTS` replaced, else the request after the text. */
export function promptText(body: string, request: string | undefined): string {
  const given = request === undefined || request.trim() === "" ? undefined : request;
  if (body.includes("$ARGUMENTS")) return body.replaceAll("$ARGUMENTS", () => given ?? "");
  if (given === undefined) return body;
  return `${body.trimEnd()}\n\n## The request\n\n${given}\n`;
}

export function registerPrompts(server: Server, skills: readonly SkillText[]): void {
  const prompts = skillPrompts(skills);
  const byName = new Map(prompts.map((p) => [p.prompt.name, p]));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts.map((p) => p.prompt) }));
  server.setRequestHandler(GetPromptRequestSchema, (request): GetPromptResult => {
    const { name, arguments: args } = request.params;
    const found = byName.get(name);
    if (found === undefined) {
      // A client's long name is not echoed back.
      const shown = name.length <= MAX_ECHOED ? ` '${name}'` : "";
      throw rpcError(INVALID_PARAMS, `Invalid params: unknown prompt${shown}`);
    }
    const given = args?.request;
    if (given !== undefined && given.length > MAX_REQUEST_CHARS) {
      throw rpcError(
        INVALID_PARAMS,
        `Invalid params: params.arguments.request: longer than ${MAX_REQUEST_CHARS} characters`,
      );
    }
    return {
      ...(found.prompt.description === undefined ? {} : { description: found.prompt.description }),
      messages: [{ role: "user", content: { type: "text", text: promptText(found.body, given) } }],
    };
  });
}

/**
 * The `key: value` lines between the leading `---` lines, and the text after them (leading blank
 * lines dropped). A text without front matter is all body.
 */
export function splitFrontMatter(text: string): { fields: Map<string, string>; body: string } {
  const fields = new Map<string, string>();
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
  if (match === null) return { fields, body: text };
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    fields.set(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { fields, body: text.slice(match[0].length).replace(/^(\r?\n)+/, "") };
}
