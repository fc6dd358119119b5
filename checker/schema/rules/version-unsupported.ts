// SCHEMA-VERSION-UNSUPPORTED: version 0.3 exists in the reference but is beyond our surface.
import { defineRule } from "../../rule";

export const SCHEMA_VERSION_UNSUPPORTED = defineRule({
  code: "SCHEMA-VERSION-UNSUPPORTED",
  severity: "error",
  family: "unsupported",
  errorType: "ir_validation_error",
  title: "Version 0.3 is not supported",
  doc: "Version 0.3 (decompose, parallel dispatch and pipeline steps) is an extension of the reference implementation that this implementation does not provide; nothing else in the file is checked. Use version 0.2 and its step kinds instead.",
  example: { bad: 'version: "0.3"', good: 'version: "0.2"' },
  suggestion: 'Use version: "0.2"',
  message: () => "IR version '0.3' is not supported by this implementation (supported: '0.1', '0.2')",
});
