// TLS from the store URL's own parameters (docs/guides/team-store.md): a PostgreSQL server with
// ssl on and a certificate from a test CA (openssl); `sslmode=verify-full&sslrootcert=<ca>` makes
// the store's connections encrypted and verified (pg_stat_ssl says so), and a CA that did not sign
// the server's certificate is refused with store_unavailable naming the store, never connected.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { PgFlowStore } from "../../../host/pg-store/pg-store";
import { StoreUnavailableError } from "../../../interpreter/store/store";
import { type PgServer, startPostgres } from "../../support/postgres";

const certs = mkdtempSync(join(tmpdir(), "stratumc-tls-"));
let server: PgServer;

function openssl(args: readonly string[]): void {
  execFileSync("openssl", args, { cwd: certs, stdio: "pipe" });
}

/** A CA, and a certificate for 127.0.0.1 signed by it; `name` distinguishes two CAs. */
function makeCa(name: string): void {
  openssl([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    `/CN=${name}`,
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.pem`,
  ]);
}

beforeAll(async () => {
  makeCa("ca");
  makeCa("other-ca");
  openssl([
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=127.0.0.1",
    "-keyout",
    "server.key",
    "-out",
    "server.csr",
  ]);
  // verify-full checks the address against the certificate's subject alternative names.
  writeFileSync(join(certs, "san.cnf"), "subjectAltName=IP:127.0.0.1\n");
  openssl([
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "2",
    "-out",
    "server.pem",
    "-extfile",
    "san.cnf",
  ]);
  server = await startPostgres({
    settings: ["ssl=on", "ssl_cert_file=server.pem", "ssl_key_file=server.key"],
    prepare: (dataDir, owner) => {
      for (const file of ["server.pem", "server.key"]) {
        copyFileSync(join(certs, file), join(dataDir, file));
        chmodSync(join(dataDir, file), 0o600);
        if (owner !== null) chownSync(join(dataDir, file), owner.uid, owner.gid);
      }
    },
  });
}, 60_000);
afterAll(() => {
  server?.destroy();
  rmSync(certs, { recursive: true, force: true });
});

it("encrypts and verifies the connection when the URL asks for it", async () => {
  const url = `${server.createDatabase("tls")}?sslmode=verify-full&sslrootcert=${join(certs, "ca.pem")}&application_name=tls-test`;
  const store = new PgFlowStore(url);
  try {
    expect(await store.list()).toEqual([]);
    const ssl = server.psql(
      "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'tls-test'",
    );
    expect(ssl.trim().split("\n")).toContain("t");
  } finally {
    await store.close();
  }
});

it("refuses a server whose certificate the given CA did not sign", async () => {
  const url = `${server.createDatabase("tls")}?sslmode=verify-full&sslrootcert=${join(certs, "other-ca.pem")}`;
  const store = new PgFlowStore(url);
  try {
    const attempt = store.list();
    await expect(attempt).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(attempt).rejects.toThrow(
      /^cannot reach the flow store at postgres:\/\/postgres@127\.0\.0\.1:\d+\/tls_\d+_\d+: .*certificate/,
    );
  } finally {
    await store.close();
  }
});
