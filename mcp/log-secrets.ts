// What the server's log lines must never carry to an MCP client: the values of its environment
// that are secrets. The lines are written to be safe already (host/redact.ts keeps passwords out of
// store and tracing messages); this is the second fence, for the copy that leaves the machine
// through notifications/message: every occurrence of a secret value is replaced by `***`.

/** Names whose values are secrets (API keys, tokens, passwords, request headers, credentials). */
const SECRET_NAME = /TOKEN|SECRET|PASSW|KEY|CREDENTIAL|AUTH|HEADERS|COOKIE|PRIVATE/i;
/** Shorter values are not looked for: they would match ordinary words and numbers. */
const MIN_SECRET_LENGTH = 6;

/**
 * The secret values of an environment: the whole value of each variable with a secret's name, the
 * values of `key=value` entries, and the password of any URL in any variable (a store URL
 * `postgres://user:password@host/db`).
 */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const found = new Set<string>();
  const add = (value: string): void => {
    const v = value.trim();
    if (v.length >= MIN_SECRET_LENGTH) found.add(v);
  };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === "") continue;
    if (SECRET_NAME.test(name)) add(value);
    // `key=value` entries: every value of a secret's variable (an OTLP header list), and a value
    // under a secret's name in any variable (`GITHUB_TOKEN=…` written into STRATUM_AGENT_ENV by
    // mistake, whose warning quotes the entry).
    for (const entry of value.split(/[,;\n]/)) {
      const eq = entry.indexOf("=");
      if (eq < 0 || !(SECRET_NAME.test(name) || SECRET_NAME.test(entry.slice(0, eq)))) continue;
      const secret = entry.slice(eq + 1);
      add(secret);
      // `Bearer <token>`: the token alone too.
      for (const word of secret.split(/\s+/)) add(word);
    }
    const password = urlPassword(value);
    if (password !== null) {
      add(password);
      add(safeDecode(password));
    }
  }
  // Longest first: a secret that contains another is replaced whole.
  return [...found].sort((a, b) => b.length - a.length);
}

function urlPassword(value: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]*?:([^@/?#\s]+)@/i.exec(value.trim());
  return match?.[1] ?? null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `text` with every secret replaced by `***`, repeated until none is left (a replacement could
 * join two pieces into one); each round shortens the text, so it ends. Secrets of three characters
 * or fewer are not looked for (secretsOf gives none).
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (;;) {
    const secret = secrets.find((s) => s.length > 3 && out.includes(s));
    if (secret === undefined) return out;
    out = out.split(secret).join("***");
  }
}
