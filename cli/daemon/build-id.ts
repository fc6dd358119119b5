// The identity of one build: scripts/build.mjs puts the same random id into every bundle it makes,
// so the daemon client (dist/stratumc-client.cjs) only talks to a daemon (dist/stratumc-daemon.cjs)
// of its own build. Run from the sources (tests), it is "dev".
declare const STRATUMC_BUILD_ID: string | undefined;

export const BUILD_ID: string = typeof STRATUMC_BUILD_ID === "string" ? STRATUMC_BUILD_ID : "dev";
