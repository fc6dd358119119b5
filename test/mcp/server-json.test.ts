// server.json, the entry of the MCP Registry (docs/guides/mcp-server-typed.md): valid under the
// registry's format as support/registry-server.schema.json writes it down, naming this package
// (npm verifies the name through package.json's mcpName), its version, and environment variables
// the docs describe; and the command it gives (`stratumc serve`) really serves MCP over stdio.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { ensureBundle, REPO } from "../cli/run-cli";
import { tempDir } from "./support/server";

const read = (path: string) => JSON.parse(readFileSync(join(REPO, path), "utf8"));
const serverJson = read("server.json");
const packageJson = read("package.json");
const registrySchema = JSON.parse(
  readFileSync(join(import.meta.dirname, "support/registry-server.schema.json"), "utf8"),
);

interface Package {
  readonly registryType: string;
  readonly identifier: string;
  readonly version: string;
  readonly transport: { readonly type: string };
  readonly packageArguments?: readonly { readonly type: string; readonly value?: string }[];
  readonly environmentVariables?: readonly { readonly name: string }[];
}

describe("server.json for the MCP Registry", () => {
  it("is valid under the registry's format", () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(registrySchema);
    expect(validate(serverJson), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses what the registry refuses (the written schema is not vacuous)", () => {
    const validate = new Ajv({ strict: false }).compile(registrySchema);
    const pkg = serverJson.packages[0];
    for (const broken of [
      { ...serverJson, name: "no-slash" },
      { ...serverJson, description: "x".repeat(101) },
      { ...serverJson, version: "^0.1.0" },
      { ...serverJson, packages: [{ ...pkg, version: "latest" }] },
      { ...serverJson, packages: [{ ...pkg, transport: { type: "websocket" } }] },
      { ...serverJson, packages: [{ ...pkg, command: "stratum-mcp" }] },
    ]) {
      expect(validate(broken), JSON.stringify(broken).slice(0, 120)).toBe(false);
    }
  });

  it("names this npm package, its version and the name package.json claims (mcpName)", () => {
    expect(serverJson.name).toBe(packageJson.mcpName);
    expect(serverJson.version).toBe(packageJson.version);
    const packages = serverJson.packages as Package[];
    expect(packages).toHaveLength(1);
    expect(packages[0]).toMatchObject({
      registryType: "npm",
      identifier: packageJson.name,
      version: packageJson.version,
      transport: { type: "stdio" },
    });
    expect(packages[0]?.packageArguments).toEqual([
      expect.objectContaining({ type: "positional", value: "serve" }),
    ]);
  });

  it("lists only environment variables the references describe", () => {
    const docs = ["docs/reference/runtime.md", "docs/guides/team-store.md"]
      .map((path) => readFileSync(join(REPO, path), "utf8"))
      .join("\n");
    const names = ((serverJson.packages as Package[])[0]?.environmentVariables ?? []).map((v) => v.name);
    expect(names).toContain("STRATUM_HOME");
    expect(names).toContain("STRATUM_STORE");
    for (const name of names) expect(docs, name).toContain(`\`${name}`);
  });

  it("gives a command that serves MCP over stdio: stratumc serve", async () => {
    ensureBundle();
    const home = tempDir("stratum-server-json-");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO, "bin/stratumc.cjs"), "serve"],
      cwd: home.path,
      env: { STRATUM_HOME: home.path, PATH: process.env.PATH ?? "" },
      stderr: "pipe",
    });
    const client = new Client({ name: "registry-entry", version: "0.0.0" });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()).toEqual({ name: "stratum-mcp", version: serverJson.version });
      const { tools } = await client.listTools();
      expect(tools.every((t) => t.outputSchema?.type === "object")).toBe(true);
    } finally {
      await client.close();
      home.dispose();
    }
  }, 60_000);
});
