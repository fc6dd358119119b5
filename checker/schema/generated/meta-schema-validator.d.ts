// generated — do not edit. Source: scripts/gen-output-schema-validator.mjs.
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
