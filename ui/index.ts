// The web page of `stratumc ui`'s public surface: its server, loaded only when the command runs
// (dist/ui.cjs in the shipped CLI, with the page's files inside).
export { loadUi, startUiReader } from "./load-ui";
// The rule for a named reviewer's name, shared with `stratumc gate --by` (small: no server in it).
export { NAME_PATTERN, NAME_RULE } from "./users";
