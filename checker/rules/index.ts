// Every semantic rule of §9.5.3–§9.5.4 except the graph rules. STUB: filled by the semantic-rules work.
import type { SemanticRule } from "./types";

export const SEMANTIC_RULES: readonly SemanticRule[] = [];
