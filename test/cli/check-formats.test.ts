// The output formats of `stratumc check` on hand-made diagnostics: pretty (frame, help, notes,
// summary, colour), JSON, GitHub workflow commands, SARIF (validated against the SARIF subset schema).
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../checker/diagnostic";
import { LineMap } from "../../checker/location";
import { RULES_DOC_URL, ruleDocHref } from "../../checker/rule-docs";
import { exitCode } from "../../cli/check/command";
import { escapeData, escapeProperty, formatGithubReports } from "../../cli/format/github";
import { formatJsonReports } from "../../cli/format/json";
import { formatPrettyReports, formatSummary } from "../../cli/format/pretty";
import { type FileReport, totals } from "../../cli/format/report";
import { artifact, formatSarifReports } from "../../cli/format/sarif";
import { COLOUR, colourEnabled, PLAIN } from "../../cli/format/style";
import { cliRules, ioReadDiagnostic } from "../../cli/rules";
import { SARIF_SUBSET_SCHEMA } from "./sarif-schema";

function d(overrides: Partial<Diagnostic> & Pick<Diagnostic, "code" | "message">): Diagnostic {
  return {
    success: false,
    error_type: "ir_semantic_error",
    path: "flows.main.steps.b.depends_on",
    severity: "error",
    line: 1,
    column: 1,
    end_line: 1,
    end_column: 2,
    ...overrides,
  };
}

function report(file: string, text: string | null, diagnostics: Diagnostic[]): FileReport {
  const errors = diagnostics.filter((x) => x.severity === "error");
  return {
    file,
    lines: text === null ? null : new LineMap(text),
    valid: errors.length === 0,
    diagnostics,
    errors,
    warnings: diagnostics.filter((x) => x.severity !== "error"),
  };
}

const SPEC = [
  'version: "0.2"',
  "flows:",
  "  main:",
  "    steps:",
  "      - id: build",
  "        intent: go",
  "      - id: b",
  "        intent: then",
  "        depends_on: [bulid]",
  "",
].join("\n");

const UNKNOWN = d({
  code: "SPEC-DEPENDS-ON-UNKNOWN",
  message: "Step 'b' depends on undefined step 'bulid'",
  suggestion: "Did you mean 'build'?",
  line: 9,
  column: 22,
  end_line: 9,
  end_column: 27,
  fix: {
    description: "Replace 'bulid' with 'build'",
    edits: [{ line: 9, column: 22, end_line: 9, end_column: 27, new_text: "build" }],
  },
});

const DUPLICATE = d({
  code: "SPEC-STEP-DUPLICATE-ID",
  message: "Duplicate step id 'b'",
  path: "flows.main.steps.1.id",
  line: 7,
  column: 13,
  end_line: 7,
  end_column: 14,
  related: [
    {
      message: "'b' is first declared here",
      path: "flows.main.steps.b",
      line: 5,
      column: 13,
      end_line: 5,
      end_column: 18,
    },
  ],
});

const WARNING = d({
  code: "SPEC-STEP-UNREACHABLE",
  severity: "warning",
  message: "Step 'b' can never run",
  path: "flows.main.steps.b",
  line: 7,
  column: 9,
  end_line: 8,
  end_column: 21,
});

describe("pretty", () => {
  it("prints header, frame, help and notes for each diagnostic, a blank line after each", () => {
    const out = formatPrettyReports([report("specs/a.stratum.yaml", SPEC, [DUPLICATE, UNKNOWN])], PLAIN);
    expect(out).toBe(
      [
        "specs/a.stratum.yaml:7:13: error: Duplicate step id 'b' [SPEC-STEP-DUPLICATE-ID]",
        " 7 |       - id: b",
        "   |             ^",
        "  = note: specs/a.stratum.yaml:5:13: 'b' is first declared here",
        "",
        "specs/a.stratum.yaml:9:22: error: Step 'b' depends on undefined step 'bulid' [SPEC-DEPENDS-ON-UNKNOWN]",
        " 9 |         depends_on: [bulid]",
        "   |                      ^^^^^",
        "  = help: Did you mean 'build'?",
        "",
        "",
      ].join("\n"),
    );
  });

  it("shows both lines of a two-line range with the wider gutter of the larger number", () => {
    const text = `${"\n".repeat(8)}  - id: b\n    intent: then\n`;
    const w = { ...WARNING, line: 9, end_line: 10, column: 3, end_column: 17 };
    expect(formatPrettyReports([report("a.yaml", text, [w])], PLAIN).split("\n")).toEqual([
      "a.yaml:9:3: warning: Step 'b' can never run [SPEC-STEP-UNREACHABLE]",
      "  9 |   - id: b",
      "    |   ^^^^^^^",
      " 10 |     intent: then",
      "    |     ^^^^^^^^^^^^",
      "",
      "",
    ]);
  });

  it("prints IO-READ without a frame and a clean file not at all", () => {
    const unreadable = report("missing.stratum.yaml", null, [ioReadDiagnostic("file not found")]);
    const clean = report("ok.stratum.yaml", "version: '0.2'\n", []);
    expect(formatPrettyReports([unreadable, clean], PLAIN)).toBe(
      "missing.stratum.yaml:1:1: error: cannot read file: file not found [IO-READ]\n\n",
    );
  });

  it("summarises errors, warnings, info notes (only when there are some) and files", () => {
    const info = d({ code: "X-INFO", message: "fyi", severity: "info" });
    const reports = [report("a", SPEC, [UNKNOWN, WARNING]), report("b", SPEC, [info]), report("c", SPEC, [])];
    expect(formatSummary(totals(reports), PLAIN)).toBe("1 error(s), 1 warning(s), 1 note(s) in 3 file(s)\n");
    expect(formatSummary(totals([]), PLAIN)).toBe("0 error(s), 0 warning(s) in 0 file(s)\n");
  });

  it("colours severity, underline and summary only with the colour style", () => {
    const out = formatPrettyReports([report("a.yaml", SPEC, [UNKNOWN])], COLOUR);
    expect(out).toContain("\x1b[1;31merror\x1b[0m");
    expect(out).toContain("\x1b[1;31m^^^^^\x1b[0m");
    expect(out).toContain("\x1b[2m[SPEC-DEPENDS-ON-UNKNOWN]\x1b[0m");
    expect(formatSummary(totals([report("a", SPEC, [WARNING])]), COLOUR)).toBe(
      "\x1b[1;33m0 error(s), 1 warning(s) in 1 file(s)\x1b[0m\n",
    );
    expect(formatPrettyReports([report("a.yaml", SPEC, [UNKNOWN])], PLAIN)).not.toContain("\x1b");
  });
});

describe("colour decision", () => {
  it("uses colour on a terminal unless NO_COLOR is set (non-empty) or TERM is dumb", () => {
    expect(colourEnabled({}, true)).toBe(true);
    expect(colourEnabled({}, false)).toBe(false);
    expect(colourEnabled({ NO_COLOR: "1" }, true)).toBe(false);
    expect(colourEnabled({ NO_COLOR: "" }, true)).toBe(true);
    expect(colourEnabled({ TERM: "dumb" }, true)).toBe(false);
  });

  it("lets FORCE_COLOR decide when it is set", () => {
    expect(colourEnabled({ FORCE_COLOR: "1" }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: "" }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: "1", NO_COLOR: "1" }, false)).toBe(true);
    expect(colourEnabled({ FORCE_COLOR: "0" }, true)).toBe(false);
    expect(colourEnabled({ FORCE_COLOR: "false" }, true)).toBe(false);
  });
});

describe("json", () => {
  it("prints an array of {file, valid, errors, warnings} with the docs/reference/language.md §9.1 objects, 2-space indented", () => {
    const out = formatJsonReports([report("a.yaml", SPEC, [UNKNOWN, WARNING]), report("b.yaml", SPEC, [])]);
    expect(out.endsWith("}\n]\n")).toBe(true);
    expect(out.split("\n")[1]).toBe("  {");
    const help = (x: Diagnostic) => ({ ...x, help_uri: ruleDocHref(x.code) });
    expect(JSON.parse(out)).toEqual([
      { file: "a.yaml", valid: false, errors: [help(UNKNOWN)], warnings: [help(WARNING)] },
      { file: "b.yaml", valid: true, errors: [], warnings: [] },
    ]);
  });

  it("gives every diagnostic the address of its code's anchor in docs/reference/rules.md as help_uri", () => {
    const io = ioReadDiagnostic("file not found");
    const [file] = JSON.parse(formatJsonReports([report("a.yaml", SPEC, [UNKNOWN, WARNING, io])]));
    expect(file.errors.map((x: { help_uri: string }) => x.help_uri)).toEqual([
      `${RULES_DOC_URL}#spec-depends-on-unknown`,
      `${RULES_DOC_URL}#io-read`,
    ]);
    expect(file.warnings[0].help_uri).toBe(`${RULES_DOC_URL}#spec-step-unreachable`);
  });
});

describe("github", () => {
  it("writes one workflow command per diagnostic with the full range and the code as title", () => {
    const out = formatGithubReports([report("specs/a.yaml", SPEC, [UNKNOWN, WARNING])]);
    expect(out).toBe(
      "::error file=specs/a.yaml,line=9,col=22,endLine=9,endColumn=27,title=SPEC-DEPENDS-ON-UNKNOWN::Step 'b' depends on undefined step 'bulid'\n" +
        "::warning file=specs/a.yaml,line=7,col=9,endLine=8,endColumn=21,title=SPEC-STEP-UNREACHABLE::Step 'b' can never run\n",
    );
  });

  it("escapes %, CR and LF in data, and also : and , in properties", () => {
    expect(escapeData("100% a\r\nb: c, d")).toBe("100%25 a%0D%0Ab: c, d");
    expect(escapeProperty("dir,x/a:b%.yaml")).toBe("dir%2Cx/a%3Ab%25.yaml");
    const info = d({ code: "X", message: "50%\nnext", severity: "info" });
    expect(formatGithubReports([report("a,b:c.yaml", null, [info])])).toBe(
      "::notice file=a%2Cb%3Ac.yaml,line=1,col=1,endLine=1,endColumn=2,title=X::50%25%0Anext\n",
    );
  });
});

describe("sarif", () => {
  const validate = new Ajv({ allErrors: true, strict: true }).compile(SARIF_SUBSET_SCHEMA);
  const log = JSON.parse(
    formatSarifReports(
      [
        report("specs/a b.stratum.yaml", SPEC, [DUPLICATE, UNKNOWN, WARNING]),
        report("<stdin>", null, [ioReadDiagnostic("not valid UTF-8 (byte 0xff at line 2, column 3)", 2, 3)]),
      ],
      "9.9.9",
    ),
  );

  it("has the shape SARIF 2.1.0 requires (subset schema, no unknown keys)", () => {
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(log.version).toBe("2.1.0");
    expect(() => new URL(log.runs[0].tool.driver.informationUri)).not.toThrow();
    for (const r of log.runs[0].results) {
      const uri = r.locations[0].physicalLocation.artifactLocation.uri;
      expect(new URL(uri, "file:///root/").href.startsWith("file:///root/")).toBe(true);
    }
  });

  it("describes the tool, says columns are code points, and lists every rule with its level", () => {
    const run = log.runs[0];
    expect(run.columnKind).toBe("unicodeCodePoints");
    expect(run.tool.driver.name).toBe("stratumc");
    expect(run.tool.driver.version).toBe("9.9.9");
    const rules: {
      id: string;
      defaultConfiguration: { level: string };
      shortDescription: { text: string };
    }[] = run.tool.driver.rules;
    const io = rules.find((r) => r.id === "IO-READ");
    expect(io?.defaultConfiguration.level).toBe("error");
    expect(io?.shortDescription.text).toBe("The input cannot be read");
    for (const r of run.results) expect(rules[r.ruleIndex]?.id ?? r.ruleId).toBe(r.ruleId);
  });

  it("gives every rule a helpUri: the anchor of its code in docs/reference/rules.md", () => {
    const rules: { id: string; helpUri: string }[] = log.runs[0].tool.driver.rules;
    expect(rules.map((r) => r.id)).toEqual(cliRules().map((r) => r.code));
    for (const r of rules) {
      expect(r.helpUri).toBe(`${RULES_DOC_URL}#${r.id.toLowerCase()}`);
      expect(() => new URL(r.helpUri)).not.toThrow();
    }
    const used = log.runs[0].results.map((r: { ruleIndex: number }) => rules[r.ruleIndex]?.helpUri);
    expect(used).toEqual([
      `${RULES_DOC_URL}#spec-step-duplicate-id`,
      `${RULES_DOC_URL}#spec-depends-on-unknown`,
      `${RULES_DOC_URL}#spec-step-unreachable`,
      `${RULES_DOC_URL}#io-read`,
    ]);
  });

  it("maps each diagnostic to a result with its region, related locations, fix and logical path", () => {
    const [dup, unknown, warning, io] = log.runs[0].results;
    const where = { uri: "specs/a%20b.stratum.yaml", uriBaseId: "%SRCROOT%" };
    expect(dup).toMatchObject({
      ruleId: "SPEC-STEP-DUPLICATE-ID",
      level: "error",
      message: { text: "Duplicate step id 'b'" },
      locations: [
        {
          physicalLocation: {
            artifactLocation: where,
            region: { startLine: 7, startColumn: 13, endLine: 7, endColumn: 14 },
          },
          logicalLocations: [{ fullyQualifiedName: "flows.main.steps.1.id" }],
        },
      ],
      relatedLocations: [
        {
          id: 1,
          physicalLocation: {
            artifactLocation: where,
            region: { startLine: 5, startColumn: 13, endLine: 5, endColumn: 18 },
          },
          message: { text: "'b' is first declared here" },
        },
      ],
    });
    expect(unknown.fixes).toEqual([
      {
        description: { text: "Replace 'bulid' with 'build'" },
        artifactChanges: [
          {
            artifactLocation: where,
            replacements: [
              {
                deletedRegion: { startLine: 9, startColumn: 22, endLine: 9, endColumn: 27 },
                insertedContent: { text: "build" },
              },
            ],
          },
        ],
      },
    ]);
    expect(unknown.properties).toEqual({ suggestion: "Did you mean 'build'?" });
    expect(warning.level).toBe("warning");
    expect(io).toMatchObject({
      ruleId: "IO-READ",
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: "%3Cstdin%3E" },
            region: { startLine: 2, startColumn: 3, endLine: 2, endColumn: 3 },
          },
        },
      ],
    });
    expect(io.locations[0].logicalLocations).toBeUndefined();
  });

  it("gives absolute paths as file URIs and relative ones against %SRCROOT%", () => {
    expect(artifact("/tmp/x y/a.yaml")).toEqual({ uri: "file:///tmp/x%20y/a.yaml" });
    expect(artifact("../a#b.yaml")).toEqual({ uri: "../a%23b.yaml", uriBaseId: "%SRCROOT%" });
  });
});

describe("exit code", () => {
  const t = (errors: number, warnings: number, unreadable = 0, notes = 0) => ({
    errors,
    warnings,
    notes,
    files: 1,
    unreadable,
  });
  it("is 0 when clean (warnings allowed), 1 on errors or too many warnings, 2 when an input is unreadable", () => {
    expect(exitCode(t(0, 5), null)).toBe(0);
    expect(exitCode(t(0, 5), 5)).toBe(0);
    expect(exitCode(t(0, 6), 5)).toBe(1);
    expect(exitCode(t(0, 1), 0)).toBe(1);
    expect(exitCode(t(1, 0), null)).toBe(1);
    expect(exitCode(t(1, 0, 1), null)).toBe(2);
  });
  it("does not count info notes as warnings for --max-warnings", () => {
    expect(exitCode(t(0, 0, 0, 3), 0)).toBe(0);
  });
});
