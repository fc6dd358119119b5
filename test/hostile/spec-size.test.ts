// Specs over the size limit: a 50 MB spec used to take 1.4 GB and abort with
// V8's out-of-memory dump after 95 s, and standard input was read without a cap. Now a text over
// MAX_SPEC_BYTES (8 MiB of UTF-8) is refused up front with one YAML-TOO-LARGE diagnostic at 1:1
// naming the size and the limit, by the core (checkSpec, so the MCP tools and the language server
// too) and by the CLI's readers, which neither read such a file (its size decides) nor more than
// the limit's worth of standard input. A spec at the limit still checks. Needs the build.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkSpec } from "../../checker/check-spec";
import { MAX_SPEC_BYTES, utf8Length } from "../../checker/yaml/rules/YAML-TOO-LARGE";
import { BUNDLE, ensureBundle } from "../cli/run-cli";
import { RawSession, toolContent } from "../mcp/support/raw-session";
import { sandbox, WORK_SPEC } from "./mcp-support";

const SPEC = WORK_SPEC;

/** The valid spec padded with one comment line to exactly `bytes` bytes (ASCII). */
function padded(bytes: number): string {
  const head = `${SPEC}# `;
  return `${head}${"x".repeat(bytes - head.length - 1)}\n`;
}

/** Many small contracts (the shape that used to take ~160 bytes of memory per input byte). */
function contracts(bytes: number): string {
  const parts = ['version: "0.2"\ncontracts:\n'];
  let size = parts[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const c = `  C${i}:\n    a: {type: string}\n    b: {type: integer}\n`;
    parts.push(c);
    size += c.length;
  }
  return parts.join("");
}

const LIMIT_TEXT = `the limit is ${MAX_SPEC_BYTES} bytes, 8 MiB`;

describe("checkSpec", () => {
  it("refuses a text one byte over the limit with one YAML-TOO-LARGE at 1:1", () => {
    const started = performance.now();
    const r = checkSpec(padded(MAX_SPEC_BYTES + 1));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(r.valid).toBe(false);
    expect(r.model).toBeNull();
    expect(r.ir).toBeNull();
    expect(r.diagnostics).toEqual([
      {
        success: false,
        error_type: "ir_parse_error",
        path: "",
        message: `Spec is too large (${MAX_SPEC_BYTES + 1} bytes; ${LIMIT_TEXT})`,
        code: "YAML-TOO-LARGE",
        severity: "error",
        line: 1,
        column: 1,
        end_line: 1,
        end_column: 1,
      },
    ]);
  });

  it("checks a text of exactly the limit", () => {
    const text = padded(MAX_SPEC_BYTES);
    expect(text.length).toBe(MAX_SPEC_BYTES);
    const r = checkSpec(text);
    expect(r.diagnostics).toEqual([]);
    expect(r.valid).toBe(true);
  });

  it("counts UTF-8 bytes, not UTF-16 units", () => {
    // 3 bytes per `€` (one UTF-16 unit), 4 per `😀` (two units).
    const head = `${SPEC}# `;
    const euros = Math.ceil((MAX_SPEC_BYTES - head.length) / 3);
    const text = `${head}${"€".repeat(euros)}\n`;
    expect(text.length).toBeLessThan(MAX_SPEC_BYTES);
    const bytes = Buffer.byteLength(text);
    expect(utf8Length(text)).toBe(bytes);
    expect(utf8Length("a😀é\ud800x")).toBe(Buffer.byteLength("a😀é\ud800x"));
    const r = checkSpec(text);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      `Spec is too large (${bytes} bytes; ${LIMIT_TEXT})`,
    ]);
  });

  it("is unchanged below the limit (a suppression comment cannot hide the refusal)", () => {
    const text = `# stratum-ignore[YAML-TOO-LARGE]: no\n${padded(MAX_SPEC_BYTES + 10)}`;
    expect(checkSpec(text).diagnostics.map((d) => d.code)).toEqual(["YAML-TOO-LARGE"]);
  });
});

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs the built CLI; `stdin` is written in chunks and a refusal to read more is not an error. */
function cli(args: readonly string[], stdin?: Buffer): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    child.stdin.on("error", () => undefined); // EPIPE: the CLI stopped reading, as it should
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr, ms: performance.now() - started }));
    if (stdin === undefined) child.stdin.end();
    else child.stdin.end(stdin);
  });
}

describe("the built CLI", () => {
  let dir = "";
  let big = "";
  let atLimit = "";
  beforeAll(() => {
    ensureBundle();
    dir = mkdtempSync(join(tmpdir(), "stratum-hostile-size-"));
    big = join(dir, "big.stratum.yaml");
    // 50 MB of many contracts: before the limit this took minutes and aborted out of memory.
    writeFileSync(big, contracts(50_000_000));
    atLimit = join(dir, "limit.stratum.yaml");
    writeFileSync(atLimit, padded(MAX_SPEC_BYTES));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a 50 MB file by its size, at once", async () => {
    const r = await cli(["check", big]);
    expect(r.status).toBe(1);
    expect(r.ms).toBeLessThan(5_000);
    expect(r.stdout).toContain(`big.stratum.yaml:1:1: error: Spec is too large (`);
    expect(r.stdout).toContain(`bytes; ${LIMIT_TEXT}) [YAML-TOO-LARGE]`);
    expect(r.stdout).toContain("1 error(s), 0 warning(s) in 1 file(s)");
    const json = await cli(["check", "--format", "json", big]);
    const [report] = JSON.parse(json.stdout) as { errors: { code: string; message: string }[] }[];
    expect(report?.errors.map((e) => e.code)).toEqual(["YAML-TOO-LARGE"]);
    const validate = await cli(["validate", big]);
    expect(validate.status).toBe(1);
    expect(JSON.parse(validate.stdout)).toMatchObject({ valid: false, errors: [{ code: "YAML-TOO-LARGE" }] });
  });

  it("stops reading 50 MB of standard input after the limit", async () => {
    const r = await cli(["check", "-"], Buffer.from(contracts(50_000_000)));
    expect(r.status).toBe(1);
    expect(r.ms).toBeLessThan(5_000);
    expect(r.stdout).toContain(
      `<stdin>:1:1: error: Spec is too large (more than ${MAX_SPEC_BYTES} bytes; ${LIMIT_TEXT}) [YAML-TOO-LARGE]`,
    );
  });

  it("still checks a file of exactly the limit", async () => {
    const r = await cli(["check", atLimit]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("0 error(s), 0 warning(s) in 1 file(s)");
    expect(r.status).toBe(0);
  });
});

describe("the built stratum-mcp over stdio", () => {
  it("answers stratum_validate and stratum_plan on a huge spec with YAML-TOO-LARGE, then keeps serving", async () => {
    const box = sandbox("stratum-hostile-size-mcp-");
    const server = new RawSession(box);
    try {
      await server.initialize();
      const huge = contracts(20_000_000);
      const started = performance.now();
      const validate = await server.request(1, "tools/call", {
        name: "stratum_validate",
        arguments: { spec: huge },
      });
      const v = toolContent(validate) as { valid: boolean; errors: { code: string; message: string }[] };
      expect(v.valid).toBe(false);
      expect(v.errors.map((e) => e.code)).toEqual(["YAML-TOO-LARGE"]);
      expect(v.errors[0]?.message).toBe(`Spec is too large (${utf8Length(huge)} bytes; ${LIMIT_TEXT})`);
      const plan = await server.request(2, "tools/call", {
        name: "stratum_plan",
        arguments: { spec: huge, flow: "main", inputs: {} },
      });
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(toolContent(plan)).toMatchObject({
        status: "error",
        code: "YAML-TOO-LARGE",
        message: `Spec is too large (${utf8Length(huge)} bytes; ${LIMIT_TEXT})`,
      });
      const after = await server.request(3, "tools/call", {
        name: "stratum_validate",
        arguments: { spec: SPEC },
      });
      expect(toolContent(after)).toMatchObject({ valid: true, errors: [] });
      expect(await server.closeInput()).toBe(0);
    } finally {
      await server.kill();
      box.dispose();
    }
  }, 60_000);

  it("list_workflows and compile_speckit refuse a 50 GiB (sparse) file by its size without reading it", async () => {
    const box = sandbox("stratum-hostile-size-workspace-");
    const server = new RawSession(box);
    try {
      const specs = join(box.cwd, "specs");
      mkdirSync(specs);
      writeFileSync(
        join(specs, "ok.stratum.yaml"),
        `version: "0.2"\nworkflow:\n  name: ok\n  description: "ok"\n  input: {}\n${SPEC.slice(SPEC.indexOf("contracts:"))}`,
      );
      const hugeBytes = 50 * 1024 ** 3;
      // Sparse: reading them would take minutes and more memory than there is.
      writeFileSync(join(specs, "huge.stratum.yaml"), "");
      truncateSync(join(specs, "huge.stratum.yaml"), hugeBytes);
      const tasks = join(box.cwd, "tasks");
      mkdirSync(tasks);
      writeFileSync(join(tasks, "T001-plan.md"), "# Plan\n");
      writeFileSync(join(tasks, "T002-huge.md"), "");
      truncateSync(join(tasks, "T002-huge.md"), hugeBytes);
      await server.initialize();
      const started = performance.now();
      const listed = toolContent(
        await server.request(1, "tools/call", {
          name: "stratum_list_workflows",
          arguments: { workflows_dir: specs },
        }),
      );
      expect(listed).toMatchObject({ workflows: [{ name: "ok" }] });
      expect(listed.errors).toEqual([
        `huge.stratum.yaml: Spec is too large (${hugeBytes} bytes; ${LIMIT_TEXT})`,
      ]);
      const compiled = toolContent(
        await server.request(2, "tools/call", {
          name: "stratum_compile_speckit",
          arguments: { tasks_dir: tasks, flow_name: "main" },
        }),
      );
      expect(compiled).toMatchObject({
        error_type: "compile_error",
        message: `Cannot read task file 'T002-huge.md': file too large (${hugeBytes} bytes; the limit is ${MAX_SPEC_BYTES} bytes)`,
      });
      expect(performance.now() - started).toBeLessThan(15_000);
      expect(await server.closeInput()).toBe(0);
    } finally {
      await server.kill();
      box.dispose();
    }
  }, 60_000);
});
