// The tools' titles, annotations and output schemas as tools/list gives them (mcp/server.ts
// toolList, mcp/output-schemas.ts): every schema compiles under the validator the SDK's client uses,
// its branches are told apart (a oneOf fails an answer two branches take), an undeclared status is
// refused, and the statuses agree with the catalogue of docs/reference/runtime.md §17.1 both ways.
// That every real answer validates is shown end to end: the SDK clients of test/mcp list the tools
// first and so validate every answer of every suite (support/server.ts), and typed-tools.test.ts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toolList } from "../../mcp/server";
import { TOOLS } from "../../mcp/tools";
import { REPO } from "../cli/run-cli";

type Schema = Record<string, unknown>;

const tools = toolList();
// As the SDK's client compiles output schemas (its default Ajv is draft 7), but strict: a keyword
// it would not understand fails here.
const ajv = new Ajv({ strict: true, allErrors: true });

const branchesOf = (schema: Schema): Schema[] => schema.oneOf as Schema[];
const propertiesOf = (branch: Schema) => (branch.properties ?? {}) as Record<string, Schema>;
const requiredOf = (branch: Schema) => (branch.required ?? []) as string[];
const statusOf = (branch: Schema): string | undefined =>
  propertiesOf(branch).status?.const as string | undefined;

/** A JSON value of what a property schema admits (the kinds output-schemas.ts uses). */
function jsonOf(schema: Schema): fc.Arbitrary<unknown> {
  if (Object.keys(schema).length === 0) return fc.jsonValue();
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map(jsonOf));
  switch (schema.type) {
    case "string":
      return fc.string();
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return schema.items === undefined
        ? fc.array(fc.jsonValue(), { maxLength: 3 })
        : fc.array(jsonOf(schema.items as Schema), { maxLength: 3 });
    case "object":
      return fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 });
    default:
      throw new Error(`no generator for ${JSON.stringify(schema)}`);
  }
}

/** An answer of this branch: its required keys, and some other keys no branch of the tool names. */
function answerOf(branch: Schema, named: ReadonlySet<string>): fc.Arbitrary<Record<string, unknown>> {
  const required = Object.fromEntries(
    requiredOf(branch).map((k) => [k, jsonOf(propertiesOf(branch)[k] ?? {})]),
  );
  const extra = fc.dictionary(
    fc.string().filter((k) => !named.has(k) && k !== "__proto__"),
    fc.jsonValue(),
    { maxKeys: 3 },
  );
  return fc.tuple(fc.record(required), extra).map(([r, e]) => ({ ...e, ...r }));
}

describe("tools/list: titles, annotations, output schemas", () => {
  it("gives every tool a title, the four hints and an object outputSchema", () => {
    expect(tools).toHaveLength(TOOLS.length);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^[A-Z][a-z].{3,40}$/);
      expect(Object.keys(tool.annotations ?? {}).sort(), tool.name).toEqual([
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
        "readOnlyHint",
      ]);
      for (const value of Object.values(tool.annotations ?? {}))
        expect(typeof value, tool.name).toBe("boolean");
      // A read-only tool neither destroys nor changes anything on a repeat.
      if (tool.annotations?.readOnlyHint === true) {
        expect(tool.annotations, tool.name).toMatchObject({ destructiveHint: false, idempotentHint: true });
      }
      const schema = tool.outputSchema as Schema;
      expect(schema.type, tool.name).toBe("object");
      expect(schema.$schema, tool.name).toBeUndefined();
      expect(() => ajv.compile(schema), tool.name).not.toThrow();
    }
  });

  it("has the error branch in every schema, and a status const or no status in every branch", () => {
    for (const tool of tools) {
      const branches = branchesOf(tool.outputSchema as Schema);
      expect(branches.map(statusOf), tool.name).toContain("error");
      for (const branch of branches) {
        const status = propertiesOf(branch).status;
        expect(status, `${tool.name}: ${JSON.stringify(branch).slice(0, 200)}`).toBeDefined();
        if (statusOf(branch) !== undefined) expect(requiredOf(branch)).toContain("status");
      }
    }
  });

  it("takes every answer of a branch by exactly that branch, and refuses an undeclared status", () => {
    for (const tool of tools) {
      const schema = tool.outputSchema as Schema;
      const whole = ajv.compile(schema);
      const branches = branchesOf(schema);
      const checks = branches.map((b) => ajv.compile(b));
      const named = new Set(branches.flatMap((b) => Object.keys(propertiesOf(b))));
      const declared = new Set(
        branches.flatMap((b) => {
          const s = propertiesOf(b).status ?? {};
          return "const" in s ? [s.const] : ((s.enum ?? []) as unknown[]);
        }),
      );
      for (const [i, branch] of branches.entries()) {
        fc.assert(
          fc.property(answerOf(branch, named), fc.string(), (answer, otherStatus) => {
            expect(whole(answer), `${tool.name} branch ${i}: ${JSON.stringify(whole.errors)}`).toBe(true);
            expect(checks.map((check) => check(answer))).toEqual(branches.map((_, j) => j === i));
            fc.pre(!declared.has(otherStatus));
            expect(whole({ ...answer, status: otherStatus }), tool.name).toBe(false);
          }),
          { seed: 35, numRuns: 40 },
        );
      }
    }
  });

  it("agrees with the table of docs/guides/mcp-server-typed.md", () => {
    const guide = readFileSync(join(REPO, "docs/guides/mcp-server-typed.md"), "utf8");
    const rows = new Map(
      guide
        .split("\n")
        .filter((line) => line.startsWith("| `stratum_"))
        .map((line) => {
          const cells = line.split("|").map((c) => c.trim());
          return [cells[1]?.replaceAll("`", ""), cells.slice(2, 7).join(" ")] as const;
        }),
    );
    const yes = (b: boolean | undefined) => (b === true ? "yes" : "no");
    expect(rows.size).toBe(tools.length);
    for (const t of tools) {
      const a = t.annotations;
      expect(rows.get(t.name), t.name).toBe(
        [
          t.title,
          yes(a?.readOnlyHint),
          yes(a?.destructiveHint),
          yes(a?.idempotentHint),
          yes(a?.openWorldHint),
        ].join(" "),
      );
    }
  });

  it("uses the statuses of the catalogue (docs/reference/runtime.md §17.1), and every top-level one of it", () => {
    const runtime = readFileSync(join(REPO, "docs/reference/runtime.md"), "utf8");
    const section = runtime.slice(runtime.indexOf("### 17.1"), runtime.indexOf("### 17.2"));
    const catalogue = new Set(
      section
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`([a-z_]+)`/g)].map((m) => m[1])),
    );
    const used = new Set(tools.flatMap((t) => branchesOf(t.outputSchema as Schema).map(statusOf)));
    used.delete(undefined);
    expect([...used].filter((s) => !catalogue.has(s as string))).toEqual([]);
    // awaiting_consumer_advance is only ever inside a poll's `outcome`.
    expect([...catalogue].filter((s) => !used.has(s) && s !== "awaiting_consumer_advance")).toEqual([]);
  });
});
