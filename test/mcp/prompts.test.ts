// The bundled skills as prompts (mcp/prompts.ts): front matter read, the body without it, and the
// `request` argument substituted or added.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SKILLS } from "../../install/generated/skills";
import { MAX_REQUEST_CHARS, promptText, skillPrompts, splitFrontMatter } from "../../mcp/prompts";

describe("skill prompts", () => {
  it("give every bundled skill a name, title, description and the optional request argument", () => {
    const prompts = skillPrompts(SKILLS);
    expect(prompts.map((p) => p.prompt.name)).toEqual(SKILLS.map((s) => s.name));
    for (const { prompt, body } of prompts) {
      expect(prompt.title, prompt.name).toMatch(/\S/);
      expect(prompt.description, prompt.name).toMatch(/\S/);
      expect(prompt.arguments).toEqual([
        { name: "request", description: expect.any(String), required: false },
      ]);
      expect(body.startsWith("# "), prompt.name).toBe(true);
    }
    expect(MAX_REQUEST_CHARS).toBe(16 * 1024);
  });

  it("split the front matter from the body (colons in values kept)", () => {
    const { fields, body } = splitFrontMatter("---\nname: x\ndescription: a: b\n---\n\n# T\ntext\n");
    expect([...fields]).toEqual([
      ["name", "x"],
      ["description", "a: b"],
    ]);
    expect(body).toBe("# T\ntext\n");
    expect(splitFrontMatter("# no front matter\n").body).toBe("# no front matter\n");
  });

  it("substitute $ARGUMENTS, else add the request after the text", () => {
    expect(promptText("Do $ARGUMENTS now; $ARGUMENTS.", "it")).toBe("Do it now; it.");
    expect(promptText("Do $ARGUMENTS.", undefined)).toBe("Do .");
    expect(promptText("# T\nbody\n\n", "fix the bug")).toBe("# T\nbody\n\n## The request\n\nfix the bug\n");
    expect(promptText("# T\nbody\n", "   ")).toBe("# T\nbody\n");
  });

  it("keep a request's text as it is ($ patterns included)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (request) => {
        expect(promptText("[$ARGUMENTS]", request)).toBe(request.trim() === "" ? "[]" : `[${request}]`);
      }),
    );
  });
});
