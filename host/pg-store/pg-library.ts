// The PostgreSQL client library, a bundle of its own (dist/pg.cjs): only a process that opens a
// PostgreSQL store loads it (pg-driver.ts), so no other command parses or snapshots it.
export { default as pg } from "pg";
