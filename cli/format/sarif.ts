// `--format sarif`: a SARIF 2.1.0 log with one run. Columns are code points, so the run says
// `columnKind: "unicodeCodePoints"` (SARIF's default would be UTF-16 code units); regions are
// half-open like ours (`endColumn` is the column after the last character). Rule metadata comes
// from the catalogue, and each rule's `helpUri` is its section of docs/reference/rules.md (the address the
// JSON format's `help_uri` and the LSP's code description use). Artifact URIs are the displayed
// paths, relative to %SRCROOT% (the working directory) unless they are absolute.
import type { Diagnostic, LocatedRange } from "../../checker/index";
import { ruleDocHref } from "../../checker/index";
import { type CliRule, cliRules } from "../rules";
import type { FileReport } from "./report";

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
/** Where the tool is documented (SARIF `tool.driver.informationUri`). */
const INFORMATION_URI = "https://github.com/stratumc/stratumc";

const LEVEL = { error: "error", warning: "warning", info: "note" } as const;

export function formatSarifReports(reports: readonly FileReport[], toolVersion: string): string {
  const rules = cliRules();
  const ruleIndex = new Map(rules.map((r, i) => [r.code, i]));
  const results = reports.flatMap((report) =>
    report.diagnostics.map((d) => result(report.file, d, ruleIndex)),
  );
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "stratumc",
            version: toolVersion,
            informationUri: INFORMATION_URI,
            rules: rules.map(ruleDescriptor),
          },
        },
        columnKind: "unicodeCodePoints",
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function ruleDescriptor(rule: CliRule) {
  return {
    id: rule.code,
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.doc },
    helpUri: ruleDocHref(rule.code),
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties: {
      family: rule.family,
      error_type: rule.errorType,
      ...(rule.fix === undefined ? {} : { fix: rule.fix }),
    },
  };
}

function result(file: string, d: Diagnostic, ruleIndex: ReadonlyMap<string, number>) {
  const artifactLocation = artifact(file);
  const index = ruleIndex.get(d.code);
  return {
    ruleId: d.code,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: LEVEL[d.severity],
    message: { text: d.message },
    locations: [
      {
        physicalLocation: { artifactLocation, region: region(d) },
        ...(d.path === "" ? {} : { logicalLocations: [{ fullyQualifiedName: d.path }] }),
      },
    ],
    ...(d.related === undefined
      ? {}
      : {
          relatedLocations: d.related.map((r, i) => ({
            id: i + 1,
            physicalLocation: { artifactLocation, region: region(r) },
            message: { text: r.message },
          })),
        }),
    ...(d.fix === undefined
      ? {}
      : {
          fixes: [
            {
              description: { text: d.fix.description },
              artifactChanges: [
                {
                  artifactLocation,
                  replacements: d.fix.edits.map((e) => ({
                    deletedRegion: region(e),
                    insertedContent: { text: e.new_text },
                  })),
                },
              ],
            },
          ],
        }),
    ...(d.suggestion === undefined ? {} : { properties: { suggestion: d.suggestion } }),
  };
}

function region(r: LocatedRange) {
  return { startLine: r.line, startColumn: r.column, endLine: r.end_line, endColumn: r.end_column };
}

/** A displayed path as a SARIF artifact location (percent-encoded URI reference). */
export function artifact(file: string): { uri: string; uriBaseId?: string } {
  const encoded = file.split("/").map(encodeURIComponent).join("/");
  if (file.startsWith("/")) return { uri: `file://${encoded}` };
  return { uri: encoded, uriBaseId: "%SRCROOT%" };
}
