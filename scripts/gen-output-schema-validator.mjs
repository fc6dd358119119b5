// Generates checker/schema/generated/meta-schema-validator.js: the JSON Schema draft 2020-12
// meta-schema validator as ajv standalone code, so that checking `output_schema` costs no
// `ajv.compile` at start-up (~26 ms per process, stack.md). Run after upgrading ajv:
//
//   node scripts/gen-output-schema-validator.mjs            writes the module and its .d.ts
//   node scripts/gen-output-schema-validator.mjs --stdout   prints the module (used by a test)
//   node scripts/gen-output-schema-validator.mjs --out DIR  writes them under DIR instead of the
//                                                           repository (scripts/check-generated.mjs)
//
// The meta-schemas are added as ordinary schemas (not as ajv meta-schemas, which ajv compiles
// with format validation switched off) so that the `regex` format of `pattern` and
// `patternProperties` is checked. The output is self-contained ESM: ajv's one runtime helper
// (deep equality, for uniqueItems) and the format functions are emitted inline.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;
const standaloneCode = require("ajv/dist/standalone").default;
const { _ } = require("ajv/dist/compile/codegen");

const META = "https://json-schema.org/draft/2020-12/schema";
const FILES = [
  "schema.json",
  "meta/core.json",
  "meta/applicator.json",
  "meta/unevaluated.json",
  "meta/validation.json",
  "meta/meta-data.json",
  "meta/format-annotation.json",
  "meta/content.json",
];

// ECMAScript regexes with the `u` flag, as the run-time output_schema validator uses them.
const regexFormat = (s) => {
  try {
    new RegExp(s, "u");
    return true;
  } catch {
    return false;
  }
};

const PRELUDE = `// generated — do not edit. Source: scripts/gen-output-schema-validator.mjs (ajv ${require("ajv/package.json").version}).
// The JSON Schema draft 2020-12 meta-schema as an ajv standalone validator.
/* eslint-disable */
function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !equal(a[k], b[k])) return false;
  return true;
}
const formats = {
  regex(s) {
    try {
      new RegExp(s, "u");
      return true;
    } catch {
      return false;
    }
  },
};
`;

const DTS = `// generated — do not edit. Source: scripts/gen-output-schema-validator.mjs.
export interface MetaSchemaError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly propertyName?: string;
  readonly message?: string;
}

export interface MetaSchemaValidator {
  (data: unknown): boolean;
  errors?: readonly MetaSchemaError[] | null;
}

/** Validates a JSON value against the JSON Schema draft 2020-12 meta-schema (first error only). */
export declare const validate: MetaSchemaValidator;
`;

export function generate() {
  const ajv = new Ajv2020({
    meta: false,
    validateSchema: false,
    strict: false,
    allErrors: false,
    code: { source: true, esm: true, lines: true, formats: _`formats` },
    formats: { regex: regexFormat, uri: true, "uri-reference": true, "uri-template": true },
  });
  for (const file of FILES) ajv.addSchema(require(`ajv/dist/refs/json-schema-2020-12/${file}`));
  let code = standaloneCode(ajv, { validate: META });
  code = code.replaceAll('require("ajv/dist/runtime/equal").default', "equal");
  if (code.includes("require(")) throw new Error("generated validator still needs a runtime require()");
  return `${PRELUDE}${code}\n`;
}

const here = dirname(fileURLToPath(import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = generate();
  const out = process.argv.indexOf("--out");
  const root = out === -1 ? join(here, "..") : process.argv[out + 1];
  const outDir = join(root, "checker", "schema", "generated");
  if (process.argv.includes("--stdout")) process.stdout.write(code);
  else {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, "meta-schema-validator.js"), code);
    writeFileSync(join(outDir, "meta-schema-validator.d.ts"), DTS);
  }
}
