// The one redaction of secrets in messages (host/redact.ts): a URL keeps scheme, user, host, port
// and path, never the password, query or fragment, also when it does not parse; a list entry is
// named by position and plain key only. Property-tested: a secret put anywhere a user could put it
// (percent-encoded or raw, in a URL that parses or not, in a header list entry with or without a
// key) never survives, and no control character reaches a log line.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { entryName, redactUrl } from "../../host/redact";
import { traceConfig } from "../../host/tracing/config";

describe("redactUrl", () => {
  it.each([
    ["http://user:pw@collector:4318/v1/traces", "http://user@collector:4318/v1/traces"],
    ["https://collector.example/v1/traces?api_key=k#frag", "https://collector.example/v1/traces"],
    [
      "postgres://team:s3cret@db.example:6432/flows?sslmode=verify-full",
      "postgres://team@db.example:6432/flows",
    ],
    ["postgresql://localhost/flows", "postgresql://localhost/flows"],
    ["ftp://u:pw@host/x", "ftp://u@host/x"],
    // Does not parse (or parses as something else): nothing before the last `@`.
    ["http://u:pa/ss@host/x", "http://***@host/x"],
    ["http://u:12/ss@host/x", "http://***@host/x"],
    ["user:pw@collector:4318", "***@collector:4318"],
    ["http://u:pw@[::1:4318/x?k=v", "http://***@[::1:4318/x"],
    ["collector:4318", "collector:4318"],
    ["not a url\nforged line", "not a url?forged line"],
  ])("%j → %j", (text, shown) => {
    expect(redactUrl(text)).toBe(shown);
  });
});

describe("entryName", () => {
  it("names an entry by position, and by its key when that is a plain name", () => {
    expect(entryName(3, "x-api-key")).toBe("entry 3 ('x-api-key')");
    expect(entryName(1, null)).toBe("entry 1");
    expect(entryName(2, "Bearer abc")).toBe("entry 2");
    expect(entryName(2, "a\nb")).toBe("entry 2");
    expect(entryName(2, "k".repeat(49))).toBe("entry 2");
  });
});

/** Looks like nothing a generated host, path, user or header name can contain. */
const secret = fc.stringMatching(/^[A-Za-z0-9]{4,16}$/).map((s) => `Zq9${s}`);
const word = fc.stringMatching(/^[a-y]{1,8}$/);
const scheme = fc.constantFrom("http", "https", "postgres", "postgresql", "ftp", "stratum");
const raw = fc.constantFrom("", "/", "?", "#", "@", ":", "%", "[", " ", "\n");

/** A URL-like text with the secret where a credential or parameter goes, encoded or not. */
const urlWithSecret = fc
  .record({
    scheme,
    slashes: fc.boolean(),
    user: word,
    host: word,
    port: fc.option(fc.integer({ min: 0, max: 99_999 }), { nil: undefined }),
    path: fc.array(word, { maxLength: 3 }),
    secret,
    before: raw,
    after: raw,
    encode: fc.boolean(),
    place: fc.constantFrom("password", "query", "fragment"),
  })
  .map((r) => {
    const s = `${r.before}${r.secret}${r.after}`;
    const value = r.encode ? encodeURIComponent(s) : s;
    const port = r.port === undefined ? "" : `:${r.port}`;
    const head = `${r.scheme}:${r.slashes ? "//" : ""}`;
    const path = r.path.map((p) => `/${p}`).join("");
    switch (r.place) {
      case "password":
        return { text: `${head}${r.user}:${value}@${r.host}${port}${path}`, secret: r.secret };
      case "query":
        return { text: `${head}${r.host}${port}${path}?token=${value}`, secret: r.secret };
      default:
        return { text: `${head}${r.host}${port}${path}#${value}`, secret: r.secret };
    }
  });

describe("a secret never survives", () => {
  it("in any URL a user could configure", () => {
    fc.assert(
      fc.property(urlWithSecret, ({ text, secret: s }) => {
        const shown = redactUrl(text);
        expect(shown).not.toContain(s);
        expect(shown).not.toContain(encodeURIComponent(s));
        expect([...shown].filter((c) => c < " " || c === "\u007f")).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });

  it("in the warnings about a header list", () => {
    const bad = (make: (s: string) => string) => secret.map((s) => ({ text: make(s), secret: s, bad: true }));
    const entry = fc.oneof(
      // well formed: sent, never shown
      fc.record({ key: fc.constantFrom("authorization", "x-api-key", "x-team"), value: secret }).map((e) => ({
        text: `${e.key}=${encodeURIComponent(`Bearer ${e.value}`)}`,
        secret: e.value,
        bad: false,
      })),
      // a value typed without its key
      bad((s) => `Bearer%20${s}`),
      bad((s) => `=${s}`),
      // a value that is not percent-encoding, or holds what a header cannot carry
      bad((s) => `x-api-key=%ZZ${s}`),
      bad((s) => `x-api-key=${s}%0Aforged`),
      bad((s) => `x-api-key=${s}%C4%80`),
      // a key that is no header name
      bad((s) => `token ${s}=1`),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), (entries) => {
        const warnings: string[] = [];
        const env = {
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
          OTEL_EXPORTER_OTLP_HEADERS: entries.map((e) => e.text).join(","),
        };
        expect(traceConfig(env, (line) => warnings.push(line))).not.toBeNull();
        // One warning per bad entry, each naming it by position.
        expect(warnings).toHaveLength(entries.filter((e) => e.bad).length);
        entries.forEach((e, i) => {
          if (e.bad) expect(warnings.some((w) => w.includes(`ignoring entry ${i + 1}`))).toBe(true);
        });
        for (const e of entries) expect(warnings.join("\n")).not.toContain(e.secret);
      }),
    );
  });
});
