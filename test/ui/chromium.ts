// Debian's Chromium driven by playwright-core, for the browser tests of `stratumc ui` and its bench
// (no browser download: .ci/run installs the `chromium` package). Nothing here needs the checkout's
// paths, so the bench bundle can carry it.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CHROMIUM = process.env.STRATUMC_TEST_CHROMIUM ?? "/usr/bin/chromium";

/** Headless Chromium with the flags this machine's closed network needs (no background connections). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}: install Debian's chromium package (.ci/run does)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
