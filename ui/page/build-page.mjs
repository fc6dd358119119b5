// Builds the browser page of `stratumc ui` (ui/page/) into three strings the server embeds:
// the HTML shell, the JavaScript bundle (esbuild: browser, IIFE, minified) and the style sheets
// of styles/, joined in cascade order and minified.
// scripts/build.mjs passes its esbuild module and the repository root.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** The style sheets, in cascade order, served as one `/app.css`. */
const STYLE_SHEETS = [
  "base.css",
  "chrome.css",
  "flows-list.css",
  "inbox.css",
  "flow-page.css",
  "graph.css",
  "steps-audit.css",
  "spec.css",
  "gate-review.css",
];

/**
 * @param {{ build: Function, transform: Function }} esbuild the esbuild module
 * @param {string} root the repository root
 * @returns {Promise<{ html: string, js: string, css: string }>}
 */
export async function buildPage(esbuild, root) {
  const dir = join(root, "ui/page");
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
  const present = (await readdir(join(dir, "styles"))).filter((name) => name.endsWith(".css"));
  const unlisted = present.filter((name) => !STYLE_SHEETS.includes(name));
  if (unlisted.length > 0)
    throw new Error(`buildPage: add ${unlisted.join(", ")} to STYLE_SHEETS (build-page.mjs)`);
  const [html, ...sheets] = await Promise.all([
    readFile(join(dir, "index.html"), "utf8"),
    ...STYLE_SHEETS.map((name) => readFile(join(dir, "styles", name), "utf8")),
  ]);
  const cssSource = sheets.join("\n");
  const css = await esbuild.transform(cssSource, { loader: "css", minify: true });
  return { html, js: out.text, css: css.code };
}
