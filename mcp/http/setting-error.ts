// A setting of the HTTP server that cannot be used (the `--http` address, a STRATUM_MCP_*
// variable): the command line prints its message as a usage error, without starting the server.
export class HttpSettingError extends Error {
  override readonly name = "HttpSettingError";
}
