// What a user configured with a secret in it (a URL with a password, a `key=value` list of request
// headers) as it may appear in a log line or an error message: the one place that decides, so the
// store's messages and the tracing warnings cannot disagree. Messages go to standard error, which
// MCP clients keep in their logs.

/**
 * A URL for messages: scheme, user name, host, port and path; never the password, the query or
 * the fragment. The user name is shown, as libpq and git show it (a token belongs in the password
 * or a header, not in the user name). A text that does not parse as a URL with a host (or whose
 * path or query holds an `@`, so that what parsed may not be what was meant) keeps nothing before
 * its last `@`, and only its scheme when a `?` or `#` comes before that `@`.
 */
export function redactUrl(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    // shown by the fallback below
  }
  if (url !== null && url.host !== "" && !`${url.pathname}${url.search}${url.hash}`.includes("@")) {
    const user = url.username === "" ? "" : `${url.username}@`;
    return `${url.protocol}//${user}${url.host}${url.pathname}`;
  }
  return printable(withoutUserInfo(text));
}

/**
 * Everything before the last `@` (after a `scheme://`) as `***`, the query and fragment cut off.
 * A `?` or `#` before that `@` leaves nothing to show safely: what follows the `@` may be the rest
 * of a query value as well as a host.
 */
function withoutUserInfo(text: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? "";
  const rest = text.slice(scheme.length);
  const at = rest.lastIndexOf("@");
  if (at < 0) return `${scheme}${rest.replace(/[?#].*$/s, "")}`;
  if (/[?#]/.test(rest.slice(0, at))) return `${scheme}***`;
  return `${scheme}***@${rest.slice(at + 1).replace(/[?#].*$/s, "")}`;
}

/** One line of visible text: control characters (a forged log line) become `?`. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "?");
}

/**
 * How a message names an entry of a `k=v,k2=v2` list (OTEL_EXPORTER_OTLP_HEADERS and the like):
 * its position (1-based), and its key when that is a plain name (an HTTP token of at most 48
 * characters). Never its value, and never the entry's text, which may be a value typed without
 * its key; a key that is no plain name may be one too.
 */
export function entryName(position: number, key: string | null): string {
  const named = key !== null && /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,48}$/.test(key);
  return named ? `entry ${position} ('${key}')` : `entry ${position}`;
}
