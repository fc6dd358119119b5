// The top-level `properties` block (a stratumc extension, docs/guides/testing-a-spec.md): what the
// author states must hold on every run of a flow, checked by `stratumc fuzz`. Part of the format's
// declarative description (spec-schema.ts), kept apart so each file has one subject. Which one of
// always / never / eventually / leads_to a property names, and the names' pattern, are checked by
// checker/rules/properties/ (SPEC-PROPERTY-KIND, SPEC-PROPERTY-NAME).
import type { ShapeSpec, ValueSpec } from "./spec-schema-types";

const NON_EMPTY_STRING: ValueSpec = { kind: "string", nonEmpty: true };

/** A property's name. */
export const PROPERTY_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The keys of a property that state what must hold; exactly one per property. */
export const PROPERTY_KINDS = ["always", "never", "eventually", "leads_to"] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

export const PROPERTY: ShapeSpec = {
  name: "property",
  anchor: "property",
  title: "Property",
  description:
    "What must hold on every run of one flow (a stratumc extension): exactly one of always, never, eventually and leads_to, over the property state ($.input, $.flow, $.steps, $.gates).",
  keys: [
    {
      name: "flow",
      value: NON_EMPTY_STRING,
      description: "The flow whose runs the property is about (a flow of this spec).",
      example: "flow: release",
    },
    {
      name: "always",
      value: NON_EMPTY_STRING,
      description: "Expression over the property state that holds in every state of every run.",
      default: "none (one of always, never, eventually, leads_to)",
      example: "always: \"$.steps.deploy.status != 'done' or $.gates.sign_off.outcome == 'approve'\"",
    },
    {
      name: "never",
      value: NON_EMPTY_STRING,
      description: "Expression over the property state that holds in no state of any run.",
      default: "none (one of always, never, eventually, leads_to)",
      example: 'never: "$.steps.fix.attempts > 3"',
    },
    {
      name: "eventually",
      value: NON_EMPTY_STRING,
      description:
        "Expression over the property state that holds in some state of every run (a run cut at the fuzzer's call limit does not satisfy it).",
      default: "none (one of always, never, eventually, leads_to)",
      example: "eventually: \"$.flow.status == 'complete'\"",
    },
    {
      name: "leads_to",
      value: { kind: "shape", shape: "leadsTo" },
      description:
        "Every state where `from` holds is followed, in the same run (that state included), by one where `to` holds.",
      default: "none (one of always, never, eventually, leads_to)",
      example:
        "leads_to:\n  from: \"$.gates.sign_off.outcome == 'revise'\"\n  to: \"$.steps.patch.status == 'done'\"",
    },
  ],
  required: ["flow"],
  otherKeys: "error",
};

export const LEADS_TO: ShapeSpec = {
  name: "leadsTo",
  anchor: "property-leads-to",
  title: "Property leads_to",
  description: "The two expressions of a leads_to property.",
  keys: [
    {
      name: "from",
      value: NON_EMPTY_STRING,
      description: "Expression over the property state: a state where it holds opens an obligation.",
      example: "from: \"$.gates.sign_off.outcome == 'revise'\"",
    },
    {
      name: "to",
      value: NON_EMPTY_STRING,
      description: "Expression over the property state: a state where it holds meets the open obligations.",
      example: "to: \"$.steps.patch.status == 'done'\"",
    },
  ],
  required: ["from", "to"],
  otherKeys: "error",
};
