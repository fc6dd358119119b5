// The Host and Origin checks of the HTTP server, against DNS rebinding: a web page a person opens
// may make their browser send requests to a server on their own machine or network, under a name
// the page's author controls. Such a request carries that name in its Host header and the page's
// origin in its Origin header, so:
// - Host must be one of the server's own names with its port: the bound host (any address of
//   this machine for a wildcard bind), the loopback names, and the names STRATUM_MCP_ALLOWED_HOSTS
//   lists (a team server reached as mcp.example.internal:8808 lists that name);
// - a request with an Origin must come from an origin STRATUM_MCP_ALLOWED_ORIGINS lists (none by
//   default); a request without one (an agent, CI, curl: not a browser) passes.
import { networkInterfaces } from "node:os";
import { isWildcardHost, urlHost } from "./listen-address";

export interface GuardSettings {
  /** The host the server is bound to (as `listen` took it) and the port it got. */
  readonly host: string;
  readonly port: number;
  /** More host names, comma-separated: `name` (at the server's port) or `name:port`. */
  readonly allowedHosts?: string | undefined;
  /** Origins (`scheme://host[:port]`), comma-separated. */
  readonly allowedOrigins?: string | undefined;
}

export type Refusal = { readonly status: 403; readonly message: string } | null;

export class RequestGuard {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins: ReadonlySet<string>;

  constructor(settings: GuardSettings) {
    const names = new Set<string>(["localhost", "127.0.0.1", "::1"]);
    if (isWildcardHost(settings.host)) {
      for (const addresses of Object.values(networkInterfaces())) {
        for (const a of addresses ?? []) names.add(a.address);
      }
    } else {
      names.add(settings.host);
    }
    const hosts = new Set<string>();
    for (const name of names) {
      hosts.add(`${urlHost(name)}:${settings.port}`.toLowerCase());
      // A client leaves HTTP's default port out of the Host header.
      if (settings.port === 80) hosts.add(urlHost(name).toLowerCase());
    }
    for (const entry of list(settings.allowedHosts)) {
      hosts.add(
        (/:\d+$/.test(entry) && !entry.endsWith("]") ? entry : `${entry}:${settings.port}`).toLowerCase(),
      );
    }
    this.hosts = hosts;
    this.origins = new Set(list(settings.allowedOrigins).map((o) => o.replace(/\/+$/, "").toLowerCase()));
  }

  /** Null when the request may go on; the refusal otherwise (its message names the header only). */
  check(hostHeader: string | undefined, originHeader: string | undefined): Refusal {
    if (hostHeader === undefined || !this.hosts.has(hostHeader.toLowerCase())) {
      return { status: 403, message: "Forbidden: the Host header does not name this server" };
    }
    if (originHeader !== undefined && !this.origins.has(originHeader.toLowerCase())) {
      return { status: 403, message: "Forbidden: requests from this Origin are not allowed" };
    }
    return null;
  }
}

function list(setting: string | undefined): string[] {
  return (setting ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}
