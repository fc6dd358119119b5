// The parts of the SARIF 2.1.0 schema (OASIS sarif-schema-2.1.0.json) that our logs use: required
// properties, enums, minimums, and `additionalProperties: false` where the standard has it, so a
// misspelt key fails too. Used with ajv to validate the logs `stratumc check --format sarif` writes.

const message = {
  type: "object",
  required: ["text"],
  properties: { text: { type: "string" } },
  additionalProperties: false,
};

const region = {
  type: "object",
  properties: {
    startLine: { type: "integer", minimum: 1 },
    startColumn: { type: "integer", minimum: 1 },
    endLine: { type: "integer", minimum: 1 },
    endColumn: { type: "integer", minimum: 1 },
  },
  required: ["startLine", "startColumn", "endLine", "endColumn"],
  additionalProperties: false,
};

const artifactLocation = {
  type: "object",
  required: ["uri"],
  properties: { uri: { type: "string" }, uriBaseId: { type: "string" } },
  additionalProperties: false,
};

const physicalLocation = {
  type: "object",
  required: ["artifactLocation", "region"],
  properties: { artifactLocation, region },
  additionalProperties: false,
};

const location = {
  type: "object",
  properties: {
    id: { type: "integer", minimum: -1 },
    physicalLocation,
    logicalLocations: {
      type: "array",
      items: {
        type: "object",
        properties: { fullyQualifiedName: { type: "string" } },
        additionalProperties: false,
      },
    },
    message,
  },
  additionalProperties: false,
};

const level = { enum: ["none", "note", "warning", "error"] };

const result = {
  type: "object",
  required: ["message"],
  properties: {
    ruleId: { type: "string" },
    ruleIndex: { type: "integer", minimum: -1 },
    level,
    message,
    locations: { type: "array", minItems: 1, items: location },
    relatedLocations: {
      type: "array",
      items: { ...location, required: ["id", "physicalLocation", "message"] },
    },
    fixes: {
      type: "array",
      items: {
        type: "object",
        required: ["artifactChanges"],
        properties: {
          description: message,
          artifactChanges: {
            type: "array",
            minItems: 1,
            items: {
              type: "object",
              required: ["artifactLocation", "replacements"],
              properties: {
                artifactLocation,
                replacements: {
                  type: "array",
                  minItems: 1,
                  items: {
                    type: "object",
                    required: ["deletedRegion"],
                    properties: { deletedRegion: region, insertedContent: message },
                    additionalProperties: false,
                  },
                },
              },
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    },
    properties: { type: "object" },
  },
  additionalProperties: false,
};

const reportingDescriptor = {
  type: "object",
  required: ["id"],
  properties: {
    id: { type: "string" },
    shortDescription: message,
    fullDescription: message,
    helpUri: { type: "string" },
    defaultConfiguration: {
      type: "object",
      properties: { level },
      additionalProperties: false,
    },
    properties: { type: "object" },
  },
  additionalProperties: false,
};

export const SARIF_SUBSET_SCHEMA = {
  type: "object",
  required: ["version", "runs"],
  properties: {
    $schema: { type: "string" },
    version: { enum: ["2.1.0"] },
    runs: {
      type: "array",
      minItems: 1,
      maxItems: 1,
      items: {
        type: "object",
        required: ["tool", "results"],
        properties: {
          tool: {
            type: "object",
            required: ["driver"],
            properties: {
              driver: {
                type: "object",
                required: ["name", "version", "informationUri", "rules"],
                properties: {
                  name: { type: "string" },
                  version: { type: "string" },
                  informationUri: { type: "string" },
                  rules: { type: "array", items: reportingDescriptor },
                },
                additionalProperties: false,
              },
            },
            additionalProperties: false,
          },
          columnKind: { enum: ["utf16CodeUnits", "unicodeCodePoints"] },
          results: { type: "array", items: result },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const;
