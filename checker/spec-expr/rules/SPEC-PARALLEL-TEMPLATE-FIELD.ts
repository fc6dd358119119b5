// SPEC-PARALLEL-TEMPLATE-FIELD: the intent_template placeholders of a parallel_dispatch step should name fields a task can have
// (version 0.3; the reference does not check them).
import { defineRule } from "../../rule";

export const SPEC_PARALLEL_TEMPLATE_FIELD = defineRule({
  code: "SPEC-PARALLEL-TEMPLATE-FIELD",
  severity: "warning",
  family: "reference",
  errorType: "ir_semantic_error",
  title: "An intent_template placeholder names no field of the tasks",
  doc: "In a parallel_dispatch step's intent_template, {task.<field>} and {<field>} are replaced by the task's field. When the tasks have a known contract and the field is not in it, the placeholder is usually misspelt; at run time it is left as written (extra task fields are allowed, so this is not an error). Correct the field name.",
  example: {
    bad: 'intent_template: "Implement {task.descripton}"',
    good: 'intent_template: "Implement {task.description}"',
  },
  message: (placeholder: string, contract: string) =>
    `intent_template placeholder '${placeholder}' names no field of ${contract}; it is left as written`,
});
