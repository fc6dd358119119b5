// The YAML family of the catalogue (docs/reference/language.md §9.5.1), in catalogue order.
import type { RuleInfo } from "../rule";
import { YAML_ALIAS_LIMIT } from "./rules/YAML-ALIAS-LIMIT";
import { YAML_DUPLICATE_KEY } from "./rules/YAML-DUPLICATE-KEY";
import { YAML_EMPTY } from "./rules/YAML-EMPTY";
import { YAML_MULTI_DOCUMENT } from "./rules/YAML-MULTI-DOCUMENT";
import { YAML_SYNTAX } from "./rules/YAML-SYNTAX";
import { YAML_TAG } from "./rules/YAML-TAG";
import { YAML_TOO_LARGE } from "./rules/YAML-TOO-LARGE";

export const YAML_RULES: readonly RuleInfo[] = [
  YAML_EMPTY,
  YAML_TOO_LARGE,
  YAML_SYNTAX,
  YAML_MULTI_DOCUMENT,
  YAML_TAG,
  YAML_ALIAS_LIMIT,
  YAML_DUPLICATE_KEY,
];
