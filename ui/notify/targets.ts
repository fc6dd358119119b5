// The webhook addresses of `stratumc ui --notify` (docs/guides/ui-notify.md): where they come from
// (the option, repeatable, or STRATUM_NOTIFY), which are accepted (http and https only), and how
// they are named in logs. A webhook's address is its secret (a Slack incoming webhook's path is
// the credential), so a log line names only its scheme and host.

export interface NotifyTarget {
  readonly url: URL;
  /** The address as logs show it: `https://hooks.slack.com/…`. */
  readonly shown: string;
}

/** The addresses of STRATUM_NOTIFY: separated by commas or white space. */
export function splitNotifyList(value: string | undefined): string[] {
  return (value ?? "").split(/[\s,]+/).filter((part) => part !== "");
}

/** The address without its path, query, fragment or credentials. */
export function redactUrl(url: URL): string {
  return `${url.protocol}//${url.host}/…`;
}

/** The targets, or why one of them cannot be used (the message never repeats the address's secret parts). */
export function parseNotifyTargets(
  addresses: readonly string[],
):
  | { readonly ok: true; readonly targets: NotifyTarget[] }
  | { readonly ok: false; readonly message: string } {
  const targets: NotifyTarget[] = [];
  const seen = new Set<string>();
  for (const [i, address] of addresses.entries()) {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return { ok: false, message: `notification address ${i + 1} is not a URL` };
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return {
        ok: false,
        message: `notification address ${i + 1} (${url.protocol}…) must be an http:// or https:// URL`,
      };
    }
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    targets.push({ url, shown: redactUrl(url) });
  }
  return { ok: true, targets };
}

/**
 * The page's address as links give it (`--public-url`, default the bound address): http(s), with
 * no query or fragment (the link adds its own), ending in `/`.
 */
export function parsePublicUrl(address: string): URL | string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return "--public-url must be a URL such as https://gates.example.com/stratum/";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return "--public-url must be an http:// or https:// URL";
  if (url.search !== "" || url.hash !== "") return "--public-url must not have a query or a fragment";
  if (url.username !== "" || url.password !== "") return "--public-url must not carry credentials";
  if (!url.pathname.endsWith("/")) url.pathname = `${url.pathname}/`;
  return url;
}
