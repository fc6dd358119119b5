// The YAML family of the catalogue (docs/reference/language.md §9.5.1), in catalogue order.
import type { RuleInfo } from "../rule";
import { YAML_ALIAS_LIMIT } from "./rules/alias-limit";
import { YAML_DUPLICATE_KEY } from "./rules/duplicate-key";
import { YAML_EMPTY } from "./rules/empty";
import { YAML_MULTI_DOCUMENT } from "./rules/multi-document";
import { YAML_SYNTAX } from "./rules/syntax";
import { YAML_TAG } from "./rules/tag";
import { YAML_TOO_LARGE } from "./rules/too-large";

export const YAML_RULES: readonly RuleInfo[] = [
  YAML_EMPTY,
  YAML_TOO_LARGE,
  YAML_SYNTAX,
  YAML_MULTI_DOCUMENT,
  YAML_TAG,
  YAML_ALIAS_LIMIT,
  YAML_DUPLICATE_KEY,
];
