// server.json, the entry of the MCP Registry (docs/guides/mcp-server-typed.md): valid under the
// registry's format as support/registry-server.schema.json writes it down, naming this package
// (npm verifies the name through package.json's mcpName), its version, and environment variables
// the docs describe; the command of its stdio entry (`stratumc serve`) really serves MCP over stdio,
// and its Streamable HTTP entry (`stratumc serve --http <listen_address>`, its URL and Authorization
// header templated as the registry allows) really serves MCP over HTTP.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { BUNDLE, ensureBundle, REPO } from "../cli/run-cli";
import { startHttpServer } from "./support/http-server";
import { tempDir } from "./support/server";

const read = (path: string) => JSON.parse(readFileSync(join(REPO, path), "utf8"));
const serverJson = read("server.json");
const packageJson = read("package.json");
const registrySchema = JSON.parse(
  readFileSync(join(import.meta.dirname, "support/registry-server.schema.json"), "utf8"),
);

interface Input {
  readonly value?: string;
  readonly variables?: Readonly<Record<string, unknown>>;
}

interface Package {
  readonly registryType: string;
  readonly identifier: string;
  readonly version: string;
  readonly transport: {
    readonly type: string;
    readonly url?: string;
    readonly headers?: readonly (Input & { readonly name: string })[];
  };
  readonly packageArguments?: readonly (Input & {
    readonly type: string;
    readonly name?: string;
    readonly valueHint?: string;
    readonly default?: string;
  })[];
  readonly environmentVariables?: readonly { readonly name: string }[];
}

/**
 * The registry's own check of a package transport's URL (beyond its schema): every `{variable}` in
 * it names one of the package's environment variables, or an argument's name or valueHint.
 */
function urlVariablesDefined(pkg: Package): boolean {
  const known = new Set([
    ...(pkg.environmentVariables ?? []).map((v) => v.name),
    ...(pkg.packageArguments ?? []).flatMap((a) => [a.name, a.valueHint].filter((n) => n !== undefined)),
  ]);
  const used = [...(pkg.transport.url ?? "").matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  return used.every((name) => known.has(name));
}

/** An input's value with its `{variables}` given. */
function resolved(input: Input, values: Readonly<Record<string, string>>): string {
  return (input.value ?? "").replace(/\{([^}]+)\}/g, (whole, name: string) =>
    input.variables?.[name] === undefined ? whole : (values[name] ?? whole),
  );
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
      { ...serverJson, packages: [{ ...pkg, transport: { type: "streamable-http" } }] },
      { ...serverJson, packages: [{ ...pkg, command: "stratum-mcp" }] },
    ]) {
      expect(validate(broken), JSON.stringify(broken).slice(0, 120)).toBe(false);
    }
  });

  it("names this npm package, its version and the name package.json claims (mcpName)", () => {
    expect(serverJson.name).toBe(packageJson.mcpName);
    expect(serverJson.version).toBe(packageJson.version);
    const packages = serverJson.packages as Package[];
    expect(packages).toHaveLength(2);
    for (const pkg of packages) {
      expect(pkg).toMatchObject({
        registryType: "npm",
        identifier: packageJson.name,
        version: packageJson.version,
      });
    }
    expect(packages[0]?.transport).toEqual({ type: "stdio" });
    expect(packages[0]?.packageArguments).toEqual([
      expect.objectContaining({ type: "positional", value: "serve" }),
    ]);
    expect(packages[1]?.transport).toMatchObject({
      type: "streamable-http",
      url: "http://{listen_address}/mcp",
    });
    expect(packages[1]?.packageArguments?.map((a) => a.value ?? `<${a.valueHint}>`)).toEqual([
      "serve",
      "--http",
      "<listen_address>",
    ]);
  });

  it("templates the Streamable HTTP URL only with the package's own arguments, as the registry checks", () => {
    const [, http] = serverJson.packages as Package[];
    if (http === undefined) throw new Error("no Streamable HTTP package");
    expect(urlVariablesDefined(http)).toBe(true);
    expect(
      urlVariablesDefined({ ...http, transport: { ...http.transport, url: "http://{host}:{port}/mcp" } }),
    ).toBe(false);
  });

  it("lists only environment variables the references describe", () => {
    const docs = ["docs/reference/runtime.md", "docs/guides/team-store.md"]
      .map((path) => readFileSync(join(REPO, path), "utf8"))
      .join("\n");
    const names = (serverJson.packages as Package[]).flatMap((p) =>
      (p.environmentVariables ?? []).map((v) => v.name),
    );
    expect(names).toContain("STRATUM_HOME");
    expect(names).toContain("STRATUM_STORE");
    expect(names).toContain("STRATUM_MCP_TOKEN");
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

  it("gives a Streamable HTTP entry that works as written: its command, URL and Authorization header", async () => {
    const [, http] = serverJson.packages as Package[];
    if (http === undefined) throw new Error("no Streamable HTTP package");
    const home = tempDir("stratum-server-json-http-");
    const token = "a-token-the-user-chose-0123456789";
    // The arguments with listen_address at port 0 are exactly what startHttpServer runs after `serve`.
    const listen = "127.0.0.1:0";
    const args = (http.packageArguments ?? []).map(
      (a) => a.value ?? (a.valueHint === "listen_address" ? listen : ""),
    );
    expect(args).toEqual(["serve", "--http", listen]);
    const server = await startHttpServer({
      cwd: home.path,
      home: home.path,
      command: [BUNDLE, "serve"],
      env: { STRATUM_MCP_TOKEN: token },
    });
    try {
      const url = (http.transport.url ?? "").replace("{listen_address}", `127.0.0.1:${server.port}`);
      expect(url).toBe(server.url);
      const headers = Object.fromEntries(
        (http.transport.headers ?? []).map((h) => [h.name, resolved(h, { token })]),
      );
      expect(headers).toEqual({ Authorization: `Bearer ${token}` });
      const client = await server.connect(headers);
      expect(client.getServerVersion()).toEqual({ name: "stratum-mcp", version: serverJson.version });
      expect((await client.listTools()).tools.length).toBeGreaterThan(20);
    } finally {
      await server.stop();
      home.dispose();
    }
  }, 60_000);
});
