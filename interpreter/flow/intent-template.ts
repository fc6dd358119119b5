// `intent_template` rendering for one task (the server path's prompt; a divergence from the
// reference, which calls Python `str.format` and never expands its own documented `{task.x}`
// form). `{task.<field>}` and `{<field>}` expand to Python `str()` of the task's field; a
// placeholder naming no field of the task, or of any other form, stays exactly as written; `{{`
// and `}}` are literal braces, as in `str.format`. Rendering never fails.
import { dictGetStr } from "../../stdlib/values/dict";
import { str } from "../../stdlib/values/repr";
import { PyDict, type PyValue } from "../../stdlib/values/value";

const TOKEN = /\{\{|\}\}|\{(task\.)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function renderIntentTemplate(template: string, task: PyValue): string {
  return template.replace(TOKEN, (whole: string, _prefix: string | undefined, field: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    if (field === undefined || !(task instanceof PyDict)) return whole;
    const value = dictGetStr(task, field);
    if (value === undefined) return whole;
    return typeof value === "string" ? value : str(value);
  });
}
