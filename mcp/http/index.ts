// Serving MCP over Streamable HTTP: the `--http HOST:PORT` server of mcp/process.ts.
import { type HttpSettings, httpSettings } from "./http-settings";
import { type ListenAddress, parseListenAddress } from "./listen-address";
import { HttpSettingError } from "./setting-error";

export { serveHttp } from "./serve-http";

/** The address and the environment's settings, or an HttpSettingError naming what is wrong. */
export function httpServerSetup(
  address: string,
  env: Readonly<Record<string, string | undefined>>,
): { readonly listen: ListenAddress; readonly settings: HttpSettings } {
  const listen = parseListenAddress(address);
  if ("error" in listen) throw new HttpSettingError(listen.error);
  const settings = httpSettings(env);
  if ("error" in settings) throw new HttpSettingError(settings.error);
  return { listen, settings };
}
