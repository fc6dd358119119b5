// Builds the browser page of `stratumc ui` (cli/ui/page/) into three strings the server embeds:
// the HTML shell, the JavaScript bundle (esbuild: browser, IIFE, minified) and the stylesheet.
// scripts/build.mjs passes its esbuild module and the repository root.
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * @param {{ build: Function, transform: Function }} esbuild the esbuild module
 * @param {string} root the repository root
 * @returns {Promise<{ html: string, js: string, css: string }>}
 */
export async function buildPage(esbuild, root) {
  const dir = join(root, "cli/ui/page");
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(dir, "main.ts")],
    tsconfig: join(dir, "tsconfig.json"),
    bundle: true,
    platform: "browser",
    format: "iife",
    minify: true,
    write: false,
    target: "es2022",
    legalComments: "none",
    charset: "utf8",
    logLevel: "warning",
  });
  const out = result.outputFiles?.[0];
  if (out === undefined) throw new Error("buildPage: esbuild produced no output");
  const [html, cssSource] = await Promise.all([
    readFile(join(dir, "index.html"), "utf8"),
    readFile(join(dir, "app.css"), "utf8"),
  ]);
  const css = await esbuild.transform(cssSource, { loader: "css", minify: true });
  return { html, js: out.text, css: css.code };
}
