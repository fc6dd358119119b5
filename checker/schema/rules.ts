// The SCHEMA family of the catalogue (docs/reference/language.md §9.5.2), in catalogue order. Each rule is its own
// module under rules/; the structure walker (walk.ts) reports them.
import type { RuleInfo } from "../rule";
import { SCHEMA_ENUM } from "./rules/SCHEMA-ENUM";
import { SCHEMA_KEY_NOT_STRING } from "./rules/SCHEMA-KEY-NOT-STRING";
import { SCHEMA_MAXIMUM } from "./rules/SCHEMA-MAXIMUM";
import { SCHEMA_MINIMUM } from "./rules/SCHEMA-MINIMUM";
import { SCHEMA_NON_EMPTY } from "./rules/SCHEMA-NON-EMPTY";
import { SCHEMA_PATTERN } from "./rules/SCHEMA-PATTERN";
import { SCHEMA_REQUIRED } from "./rules/SCHEMA-REQUIRED";
import { SCHEMA_ROOT_NOT_MAPPING } from "./rules/SCHEMA-ROOT-NOT-MAPPING";
import { SCHEMA_TYPE } from "./rules/SCHEMA-TYPE";
import { SCHEMA_UNKNOWN_KEY } from "./rules/SCHEMA-UNKNOWN-KEY";
import { SCHEMA_VERSION_UNKNOWN } from "./rules/SCHEMA-VERSION-UNKNOWN";

export const SCHEMA_RULES: readonly RuleInfo[] = [
  SCHEMA_VERSION_UNKNOWN,
  SCHEMA_ROOT_NOT_MAPPING,
  SCHEMA_KEY_NOT_STRING,
  SCHEMA_REQUIRED,
  SCHEMA_UNKNOWN_KEY,
  SCHEMA_TYPE,
  SCHEMA_ENUM,
  SCHEMA_MINIMUM,
  SCHEMA_MAXIMUM,
  SCHEMA_NON_EMPTY,
  SCHEMA_PATTERN,
];
