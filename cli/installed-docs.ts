// Where a page of the documentation is: the copy installed with the package (docs/ ships in it,
// so help works offline and matches the installed version) when this install has it, and the
// published page always. Machine-read links (the JSON format's `help_uri`, SARIF's `helpUri`, the
// editor's code link) stay the published address: they must be the same on every machine.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The published docs/ folder. */
const DOCS_URL = "https://github.com/stratumc/stratumc/blob/main/docs";

/**
 * The installed copy of docs/`rel`, or null when there is none. The bundle (dist/stratumc.cjs) and
 * this source file (cli/installed-docs.ts) both sit one folder below the package root.
 */
function installedDoc(rel: string): string | null {
  const path = fileURLToPath(new URL(`../docs/${rel}`, import.meta.url));
  return existsSync(path) ? path : null;
}

/**
 * Lines (each ending in a newline) saying where docs/`rel` is: the installed file when present,
 * then the web page; `section` names the heading (its anchor in the web address).
 */
export function docsPointer(
  rel: string,
  section?: { readonly title: string; readonly anchor: string },
): string {
  const local = installedDoc(rel);
  const web = `${DOCS_URL}/${rel}${section === undefined ? "" : `#${section.anchor}`}`;
  const where = section === undefined ? "" : ` (section ${section.title})`;
  return local === null
    ? `Documentation: ${web}\n`
    : `Documentation: ${local}${where}, installed with stratumc\n               ${web}\n`;
}
