// The PostgreSQL store's URL (docs/guides/team-store.md): libpq's form passed on to the driver, our own
// `pool_size` taken out, and a display form for messages that never holds the password — also
// for URLs that do not parse (property-tested over random passwords and mangled URLs).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CONNECT_TIMEOUT_S,
  DEFAULT_POOL_SIZE,
  DEFAULT_QUERY_TIMEOUT_S,
  isPostgresUrl,
  parseStoreUrl,
  StoreUrlError,
} from "../../../host/pg-store/store-url";

describe("store URLs", () => {
  it("keeps TLS and other libpq parameters for the driver and takes out pool_size", () => {
    const url = parseStoreUrl(
      "postgres://team:s3cret@db.example:6432/flows?sslmode=verify-full&pool_size=12",
    );
    expect(url.poolSize).toBe(12);
    expect(url.connectionString).toBe("postgres://team:s3cret@db.example:6432/flows?sslmode=verify-full");
    expect(url.display).toBe("postgres://team@db.example:6432/flows");
  });

  it("has a default pool size and accepts postgresql://", () => {
    const url = parseStoreUrl("postgresql://localhost/flows");
    expect(url.poolSize).toBe(DEFAULT_POOL_SIZE);
    expect(url.display).toBe("postgresql://localhost/flows");
    expect(isPostgresUrl("POSTGRES://x/y")).toBe(true);
    expect(isPostgresUrl("/var/lib/stratum")).toBe(false);
  });

  it("reads connect_timeout and query_timeout in seconds and takes them out of the URL", () => {
    const url = parseStoreUrl("postgres://u:pw@h/d?connect_timeout=2&sslmode=require&query_timeout=30");
    expect(url.connectTimeoutMs).toBe(2000);
    expect(url.queryTimeoutMs).toBe(30_000);
    expect(url.connectionString).toBe("postgres://u:pw@h/d?sslmode=require");
    const defaults = parseStoreUrl("postgres://h/d");
    expect([defaults.connectTimeoutMs, defaults.queryTimeoutMs]).toEqual([
      DEFAULT_CONNECT_TIMEOUT_S * 1000,
      DEFAULT_QUERY_TIMEOUT_S * 1000,
    ]);
  });

  it.each([
    ["connect_timeout", "0"],
    ["connect_timeout", "3601"],
    ["query_timeout", "0.5"],
    ["query_timeout", "-1"],
    ["query_timeout", ""],
  ])("refuses %s=%j, naming it without the password", (name, value) => {
    expect(() => parseStoreUrl(`postgres://u:pw@h/d?${name}=${value}`)).toThrow(
      new RegExp(`^${name} must be a whole number from 1 to 3600, not '${value}' \\(postgres://u@h/d\\)$`),
    );
  });

  it.each(["0", "101", "4.5", "-1", "x", ""])("refuses pool_size=%j", (value) => {
    expect(() => parseStoreUrl(`postgres://u:pw@h/d?pool_size=${value}`)).toThrow(StoreUrlError);
    expect(() => parseStoreUrl(`postgres://u:pw@h/d?pool_size=${value}`)).toThrow(
      /pool_size must be a whole number from 1 to 100.*\(postgres:\/\/u@h\/d\)/,
    );
  });

  it("never shows the password, in the display form or in an error", () => {
    const password = fc
      .string({ minLength: 6, maxLength: 20, unit: "grapheme-ascii" })
      .filter((p) => /^[A-Za-z0-9]+$/.test(p));
    const shape = fc.constantFrom(
      (pw: string) => `postgres://user:${pw}@host:5432/db`,
      (pw: string) => `postgres://user:${pw}@host:5432/db?pool_size=nope`,
      (pw: string) => `postgres://user:${pw}@[::1:5432/db`,
      (pw: string) => `postgres://user:${pw}@host:99999/db`,
    );
    fc.assert(
      fc.property(password, shape, (pw, make) => {
        const text = make(pw);
        try {
          expect(parseStoreUrl(text).display).not.toContain(pw);
        } catch (e) {
          expect(e).toBeInstanceOf(StoreUrlError);
          expect((e as Error).message).not.toContain(pw);
        }
      }),
    );
  });
});
