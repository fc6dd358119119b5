// The structure phase (docs/reference/language.md §1.1, docs/reference/language.md §1.2, docs/reference/language.md §9.3 phase 2): the root must be a mapping, the
// version selects the schema, then every node is checked against that schema (schema/walk.ts) and the
// spec model is built (build.ts).
import { valueRange } from "../anchors";
import type { Version } from "../base/version";
import type { Reporter } from "../report";
import { pythonStr } from "../schema/python-str";
import { SCHEMA_ROOT_NOT_MAPPING } from "../schema/rules/SCHEMA-ROOT-NOT-MAPPING";
import { SCHEMA_TYPE } from "../schema/rules/SCHEMA-TYPE";
import { SCHEMA_VERSION_UNKNOWN } from "../schema/rules/SCHEMA-VERSION-UNKNOWN";
import { StructureWalker } from "../schema/walk";
import type { SpecSource } from "../source";
import type { MapNode, SpecNode } from "../yaml/nodes";
import { pythonRepr } from "../yaml/repr";
import { buildModel } from "./build";
import type { SpecModel } from "./types";

/** Structure phase + model: null when nothing else may be checked (root not a mapping, unknown version). */
export function checkStructure(src: SpecSource, root: SpecNode, reporter: Reporter): SpecModel | null {
  if (root.kind !== "map") {
    reporter.report(SCHEMA_ROOT_NOT_MAPPING, {
      message: SCHEMA_ROOT_NOT_MAPPING.message(pythonRepr(root)),
      path: "root",
      range: root.range,
      suggestion: SCHEMA_ROOT_NOT_MAPPING.suggestion,
    });
    return null;
  }
  const version = checkVersion(src, root, reporter);
  if (version === "unknown") {
    // A missing or unknown version must not hide the document's other structural problems: they
    // are checked against the 0.3 schema (the version the help suggests, and the most lenient
    // one), but no semantic rule runs on a document whose version is not known.
    new StructureWalker(src, reporter, "0.3").shape(root, "root", [], { kind: "root" });
    return null;
  }
  const walker = new StructureWalker(src, reporter, version.version);
  if (version.invalidNode !== null) walker.markInvalid(version.invalidNode);
  walker.shape(root, "root", [], { kind: "root" });
  return buildModel(src, root, version.version, walker.findings);
}

interface VersionLookup {
  readonly version: Version;
  /** The version node when it is not a string (SCHEMA-TYPE was reported). */
  readonly invalidNode: SpecNode | null;
}

/**
 * docs/reference/language.md §1.2: the version is looked up by Python `str()` of the loaded value. "unknown": missing or not a
 * version we know (reported).
 */
function checkVersion(src: SpecSource, root: MapNode, reporter: Reporter): VersionLookup | "unknown" {
  const entry = root.get("version");
  if (entry === undefined) {
    reporter.report(SCHEMA_VERSION_UNKNOWN, {
      message: SCHEMA_VERSION_UNKNOWN.message(""),
      path: "version",
      range: { start: 0, end: 0 },
      suggestion: SCHEMA_VERSION_UNKNOWN.missingSuggestion,
    });
    return "unknown";
  }
  const node = entry.value;
  const text = pythonStr(node);
  if (text !== "0.1" && text !== "0.2" && text !== "0.3") {
    reporter.report(SCHEMA_VERSION_UNKNOWN, {
      message: SCHEMA_VERSION_UNKNOWN.message(text),
      path: "version",
      range: valueRange(src, entry),
      suggestion: SCHEMA_VERSION_UNKNOWN.suggestion,
    });
    return "unknown";
  }
  if (node.kind === "scalar" && typeof node.value === "string") return { version: text, invalidNode: null };
  // An unquoted `version: 0.2` is a float: the schema is known, the value has the wrong type.
  const quotable = node.kind === "scalar" && node.style === "plain" && node.tag === null;
  reporter.report(SCHEMA_TYPE, {
    message: SCHEMA_TYPE.message(pythonRepr(node), ["string"]),
    path: "version",
    range: valueRange(src, entry),
    suggestion: SCHEMA_TYPE.versionSuggestion(text),
    ...(quotable
      ? { fix: { description: "Quote the version", edits: [{ range: node.range, newText: `"${text}"` }] } }
      : {}),
  });
  return { version: text, invalidNode: node };
}
