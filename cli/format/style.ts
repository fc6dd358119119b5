// Terminal colour. Decided once per output stream: FORCE_COLOR, when set, decides (`0` or `false`
// turn colour off, anything else on — as Node's own tty colour detection); otherwise NO_COLOR set to
// a non-empty value (no-color.org) or TERM=dumb turn it off; otherwise colour only on a terminal.

export type Env = Readonly<Record<string, string | undefined>>;

export function colourEnabled(env: Env, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
}

export type Paint = (text: string) => string;

export interface Style {
  readonly bold: Paint;
  readonly dim: Paint;
  readonly error: Paint;
  readonly warning: Paint;
  readonly info: Paint;
  readonly help: Paint;
  readonly ok: Paint;
  /** Line numbers and the `|` gutter. */
  readonly gutter: Paint;
}

const plain: Paint = (text) => text;

function sgr(open: string): Paint {
  return (text) => (text === "" ? text : `\x1b[${open}m${text}\x1b[0m`);
}

export const PLAIN: Style = {
  bold: plain,
  dim: plain,
  error: plain,
  warning: plain,
  info: plain,
  help: plain,
  ok: plain,
  gutter: plain,
};

export const COLOUR: Style = {
  bold: sgr("1"),
  dim: sgr("2"),
  error: sgr("1;31"),
  warning: sgr("1;33"),
  info: sgr("1;34"),
  help: sgr("1;36"),
  ok: sgr("1;32"),
  gutter: sgr("34"),
};

export function styleFor(env: Env, isTTY: boolean): Style {
  return colourEnabled(env, isTTY) ? COLOUR : PLAIN;
}

/** The paint of a severity word and its underline. */
export function severityPaint(style: Style, severity: "error" | "warning" | "info"): Paint {
  return severity === "error" ? style.error : severity === "warning" ? style.warning : style.info;
}
