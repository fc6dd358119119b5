// The YAML family's rule entries (docs/reference/language.md §9.5.1): codes, severities, error type, family,
// exact message templates, docs for `stratumc explain`.
import { describe, expect, it } from "vitest";
import { YAML_RULES } from "../../../checker/yaml/rules";
import { YAML_ALIAS_LIMIT } from "../../../checker/yaml/rules/YAML-ALIAS-LIMIT";
import { YAML_DUPLICATE_KEY } from "../../../checker/yaml/rules/YAML-DUPLICATE-KEY";
import { YAML_EMPTY } from "../../../checker/yaml/rules/YAML-EMPTY";
import { YAML_MULTI_DOCUMENT } from "../../../checker/yaml/rules/YAML-MULTI-DOCUMENT";
import { YAML_SYNTAX } from "../../../checker/yaml/rules/YAML-SYNTAX";
import { YAML_TAG } from "../../../checker/yaml/rules/YAML-TAG";

describe("YAML rules", () => {
  it("lists the seven codes in catalogue order with their severities", () => {
    expect(YAML_RULES.map((r) => [r.code, r.severity])).toEqual([
      ["YAML-EMPTY", "error"],
      ["YAML-TOO-LARGE", "error"],
      ["YAML-SYNTAX", "error"],
      ["YAML-MULTI-DOCUMENT", "error"],
      ["YAML-TAG", "error"],
      ["YAML-ALIAS-LIMIT", "error"],
      ["YAML-DUPLICATE-KEY", "warning"],
    ]);
    for (const r of YAML_RULES) {
      expect(r.family).toBe("yaml");
      expect(r.errorType).toBe("ir_parse_error");
      expect(r.title.length).toBeGreaterThan(10);
      const sentences = r.doc.split(/(?<=\.)\s+/).filter((s) => s.length > 0);
      expect(sentences.length).toBeGreaterThanOrEqual(1);
      expect(sentences.length).toBeLessThanOrEqual(4);
    }
  });

  it("message templates are exactly those of docs/reference/language.md §9.5.1", () => {
    expect(YAML_EMPTY.message()).toBe("YAML syntax error: Empty or blank YAML input");
    expect(YAML_SYNTAX.message("Unexpected end")).toBe("YAML syntax error: Unexpected end");
    expect(YAML_MULTI_DOCUMENT.message()).toBe(
      "YAML syntax error: expected a single document in the stream but found another document",
    );
    expect(YAML_TAG.message("!!set")).toBe("YAML syntax error: unsupported tag '!!set'");
    expect(YAML_ALIAS_LIMIT.message()).toBe("YAML syntax error: too many alias expansions (limit 100)");
    expect(YAML_DUPLICATE_KEY.message("id")).toBe(
      "Duplicate key 'id' in mapping; the last occurrence is used",
    );
    expect(YAML_DUPLICATE_KEY.related()).toBe("this occurrence is used");
  });
});
