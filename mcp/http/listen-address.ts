// The `--http HOST:PORT` address of the Streamable HTTP server (docs/guides/mcp-server-http.md):
// a host name or IP address (IPv6 in brackets) and a port 0–65535 (0: any free port, which the
// server prints). Whether the host is a loopback one decides the warning a bind that other
// machines can reach prints.
import { isIP } from "node:net";

export interface ListenAddress {
  /** The host as `listen` takes it (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
}

/** The address, or a one-line reason it is not one. */
export function parseListenAddress(text: string): ListenAddress | { readonly error: string } {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(text);
  const port = match === null ? Number.NaN : Number(match[3]);
  if (match === null || !(port >= 0 && port <= 65535)) {
    return { error: `--http: expected HOST:PORT (for instance 127.0.0.1:8808 or [::1]:8808), got '${text}'` };
  }
  const v6 = match[1];
  if (v6 !== undefined && isIP(v6) !== 6) return { error: `--http: '${v6}' is not an IPv6 address` };
  return { host: v6 ?? match[2] ?? "", port };
}

/** Names and addresses that only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/** Any-address binds: every interface of the machine. */
export function isWildcardHost(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]";
}

/** The host as it appears in a URL or a Host header (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
