// Python's `str()` of a loaded value, for the version lookup of docs/reference/language.md §1.2 (`str(0.2)` is
// '0.2', `str(None)` is 'None', `str(True)` is 'True', a date prints as 2024-01-01).
import { floatRepr } from "../../stdlib/values/repr";
import { PyFloat } from "../../stdlib/values/value";
import type { SpecNode, YamlTimestamp } from "../yaml/nodes";
import { pythonRepr } from "../yaml/repr";

export function pythonStr(node: SpecNode): string {
  if (node.kind !== "scalar") return pythonRepr(node); // str() of a list or dict is its repr
  const v = node.value;
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint") return v.toString();
  if (v instanceof PyFloat) return floatRepr(v.v);
  return timestampStr(v);
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

/** `str()` of a date or datetime, recovered from its Python repr (which the loader computed). */
function timestampStr(t: YamlTimestamp): string {
  const args = /^datetime\.(date|datetime)\((.*)\)$/.exec(t.pythonRepr);
  if (args === null) return t.text;
  const [head = "", tz] = (args[2] ?? "").split(", tzinfo=");
  const n = head.split(", ").map(Number);
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0, us = 0] = n;
  const date = `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}`;
  if (args[1] === "date") return date;
  const time = `${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${us !== 0 ? `.${pad(us, 6)}` : ""}`;
  return `${date} ${time}${tz === undefined ? "" : offsetStr(tz)}`;
}

/** `datetime.timezone.utc` or `datetime.timezone(datetime.timedelta(days=-1, seconds=68400))`. */
function offsetStr(tz: string): string {
  const days = Number(/days=(-?\d+)/.exec(tz)?.[1] ?? 0);
  const seconds = Number(/seconds=(\d+)/.exec(tz)?.[1] ?? 0);
  const total = days * 86400 + seconds;
  const sign = total < 0 ? "-" : "+";
  const abs = Math.abs(total);
  return `${sign}${pad(Math.floor(abs / 3600), 2)}:${pad(Math.floor((abs % 3600) / 60), 2)}`;
}
