// The SCHEMA family of the catalogue (docs/reference/language.md §9.5.2), in catalogue order. Each rule is its own
// module under rules/; the structure walker (walk.ts) reports them.
import type { RuleInfo } from "../rule";
import { SCHEMA_ENUM } from "./rules/enum";
import { SCHEMA_FEATURE_UNSUPPORTED } from "./rules/feature-unsupported";
import { SCHEMA_KEY_NOT_STRING } from "./rules/key-not-string";
import { SCHEMA_MINIMUM } from "./rules/minimum";
import { SCHEMA_NON_EMPTY } from "./rules/non-empty";
import { SCHEMA_PATTERN } from "./rules/pattern";
import { SCHEMA_REQUIRED } from "./rules/required";
import { SCHEMA_ROOT_NOT_MAPPING } from "./rules/root-not-mapping";
import { SCHEMA_TYPE } from "./rules/type";
import { SCHEMA_UNKNOWN_KEY } from "./rules/unknown-key";
import { SCHEMA_VERSION_UNKNOWN } from "./rules/version-unknown";

export const SCHEMA_RULES: readonly RuleInfo[] = [
  SCHEMA_VERSION_UNKNOWN,
  SCHEMA_ROOT_NOT_MAPPING,
  SCHEMA_KEY_NOT_STRING,
  SCHEMA_REQUIRED,
  SCHEMA_UNKNOWN_KEY,
  SCHEMA_FEATURE_UNSUPPORTED,
  SCHEMA_TYPE,
  SCHEMA_ENUM,
  SCHEMA_MINIMUM,
  SCHEMA_NON_EMPTY,
  SCHEMA_PATTERN,
];
