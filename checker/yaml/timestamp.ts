// YAML 1.1 timestamps as PyYAML constructs them: `YYYY-MM-DD` is a `datetime.date`, a date with a
// time a `datetime.datetime` (fraction cut to microseconds, optional `Z` or `±HH[:MM]` offset).
// The value keeps its text and Python's repr; Python's range checks are reproduced so that a date
// PyYAML cannot construct (`2024-02-30`) is an error here too.
import { YamlTimestamp } from "./nodes";

/** PyYAML's resolver pattern: which plain scalars are timestamps. */
export const TIMESTAMP_PATTERN =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

/** PyYAML's constructor pattern (groups: year, month, day, hour, minute, second, fraction, tz…). */
const PARTS =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?)?$/;

export type TimestampResult =
  | { readonly ok: true; readonly value: YamlTimestamp }
  | { readonly ok: false; readonly description: string };

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (DAYS[month - 1] ?? 31);
}

/** Constructs a text that matched TIMESTAMP_PATTERN. */
export function constructTimestamp(text: string): TimestampResult {
  const m = PARTS.exec(text);
  if (m === null) return fail(text, "not a timestamp");
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const check = checkDate(year, month, day);
  if (m[4] === undefined) {
    if (check !== null) return fail(text, check);
    return ok(text, `datetime.date(${year}, ${month}, ${day})`);
  }
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const fraction = m[7] ? Number(m[7].slice(0, 6).padEnd(6, "0")) : 0;
  let tz = "";
  if (m[9] !== undefined) {
    // Python builds the timezone first: its range check comes before the date's.
    const minutes = Number(m[10]) * 60 + Number(m[11] ?? "0");
    if (minutes >= 24 * 60) return fail(text, "UTC offset must be strictly between -24 and 24 hours");
    tz = `, tzinfo=${timezoneRepr(m[9] === "-" ? -minutes * 60 : minutes * 60)}`;
  } else if (m[8] !== undefined) {
    tz = ", tzinfo=datetime.timezone.utc";
  }
  const bad =
    check ??
    (hour > 23
      ? "hour must be in 0..23"
      : minute > 59
        ? "minute must be in 0..59"
        : second > 59
          ? "second must be in 0..59"
          : null);
  if (bad !== null) return fail(text, bad);
  const time = fraction !== 0 ? `, ${second}, ${fraction}` : second !== 0 ? `, ${second}` : "";
  return ok(text, `datetime.datetime(${year}, ${month}, ${day}, ${hour}, ${minute}${time}${tz})`);
}

function checkDate(year: number, month: number, day: number): string | null {
  if (year < 1) return `year ${year} is out of range`;
  if (month < 1 || month > 12) return "month must be in 1..12";
  if (day < 1 || day > daysIn(year, month)) return "day is out of range for month";
  return null;
}

/** Python's repr of `datetime.timezone(timedelta(seconds=s))` (the UTC singleton for 0). */
function timezoneRepr(seconds: number): string {
  if (seconds === 0) return "datetime.timezone.utc";
  const days = Math.floor(seconds / 86400);
  const rest = seconds - days * 86400;
  const args = [days !== 0 ? `days=${days}` : "", rest !== 0 ? `seconds=${rest}` : ""].filter((a) => a);
  return `datetime.timezone(datetime.timedelta(${args.join(", ")}))`;
}

function ok(text: string, repr: string): TimestampResult {
  return { ok: true, value: new YamlTimestamp(text, repr) };
}

function fail(text: string, why: string): TimestampResult {
  return { ok: false, description: `cannot load '${text}' as a date: ${why}` };
}
