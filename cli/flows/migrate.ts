// `stratumc flows migrate --from LOCATION --to LOCATION [--dry-run]` (, docs/guides/team-store.md
// "Migrating flows"): copies every flow of one store into another — a STRATUM_HOME directory into a
// PostgreSQL database and back, or any store into any other. Each flow is written as one complete
// text (its journal folded in) at the revision it has in the source, then read back and compared.
// Idempotent: a flow the target already holds in the same state is skipped; one it holds in
// another state is a conflict and is left alone. The source is only read.
//
// Kept apart from commander (command.ts registers it) so that tests run it in process.
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { checkStoreLocation, isPostgresUrl, type LocatedStore, storeAt } from "../../host/index";
import {
  corruptError,
  decodeStoredFlow,
  encodeFlowState,
  type FlowStore,
  FlowTooLargeError,
  StaleStateError,
  type StoredFlow,
  StoreLockedError,
  textWrite,
} from "../../interpreter/index";
import { UsageError } from "../exit-codes";

export interface MigrateRequest {
  /** `--from`: a postgres:// URL or a directory (STRATUM_HOME, or its `flows` folder). */
  readonly from: string;
  readonly to: string;
  readonly dryRun: boolean;
  /** Relative directories are resolved against it. */
  readonly cwd: string;
}

export interface MigrateOutput {
  out(text: string): void;
  err(text: string): void;
}

export interface MigrateSummary {
  /** Written and verified (with --dry-run: would be written). */
  readonly migrated: number;
  readonly alreadyThere: number;
  /** Corrupt in the source, in conflict with the target, or not written or not verified. */
  readonly failed: number;
}

/**
 * Opens the store a location names. A directory is a STRATUM_HOME (flows in its `flows` folder);
 * the `flows` folder itself is accepted too: a directory named `flows` without a `flows` folder
 * inside is taken as the flows of its parent. The source must exist; a target is created.
 */
function openLocation(location: string, cwd: string, option: "--from" | "--to"): LocatedStore {
  if (location === "") throw new UsageError(`${option}: expected a postgres:// URL or a directory`);
  checkStoreLocation(location);
  if (isPostgresUrl(location)) return storeAt(location, cwd);
  const dir = resolve(cwd, location);
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat !== undefined && !stat.isDirectory()) throw new UsageError(`${option}: not a directory: ${dir}`);
  if (stat === undefined && option === "--from") throw new UsageError(`--from: no such directory: ${dir}`);
  const home = !existsSync(join(dir, "flows")) && basename(dir) === "flows" ? dirname(dir) : dir;
  return storeAt(home, cwd);
}

/** Migrates every flow; what could not be migrated is named on `io.err` and counted as failed. */
export async function migrateFlows(request: MigrateRequest, io: MigrateOutput): Promise<MigrateSummary> {
  const source = openLocation(request.from, request.cwd, "--from");
  let target: LocatedStore | null = null;
  try {
    target = openLocation(request.to, request.cwd, "--to");
    if (source.where === target.where) {
      throw new UsageError(`--from and --to name the same store (${source.where})`);
    }
    // Both databases are reached (and their schemas checked) before anything is read or written,
    // so an unreachable target is reported before a long source is read.
    for (const s of [source.store, target.store]) await s.open?.();
    io.out(
      `${request.dryRun ? "Dry run: would migrate" : "Migrating"} the flows of ${source.where} to ${target.where}\n`,
    );
    return await migrateAll(source.store, target.store, request.dryRun, io);
  } finally {
    await closeQuietly(source.store);
    if (target !== null) await closeQuietly(target.store);
  }
}

async function migrateAll(
  source: FlowStore,
  target: FlowStore,
  dryRun: boolean,
  io: MigrateOutput,
): Promise<MigrateSummary> {
  let migrated = 0;
  let alreadyThere = 0;
  let failed = 0;
  for (const { flowId } of await source.list()) {
    const outcome = await migrateOne(source, target, flowId, dryRun, io);
    if (outcome === "migrated") migrated++;
    else if (outcome === "already there") alreadyThere++;
    else if (outcome === "failed") failed++;
  }
  const summary = `${migrated} flow(s), ${alreadyThere} already there, ${failed} failed.\n`;
  io.out(dryRun ? `Would migrate ${summary}` : `Migrated ${summary}`);
  return { migrated, alreadyThere, failed };
}

type Outcome = "migrated" | "already there" | "failed" | "gone";

async function migrateOne(
  source: FlowStore,
  target: FlowStore,
  flowId: string,
  dryRun: boolean,
  io: MigrateOutput,
): Promise<Outcome> {
  const fail = (message: string): Outcome => {
    io.err(`${message}\n`);
    return "failed";
  };
  const stored = await source.read(flowId);
  if (stored === null) return "gone"; // removed since it was listed
  const decoded = decodeStoredFlow(stored);
  if (!decoded.ok) {
    const corrupt = corruptError(source, flowId, stored, decoded);
    return fail(`warning: corrupt flow ${corrupt.file}: ${corrupt.problem} (not migrated)`);
  }
  const state = decoded.state;
  let text: string;
  try {
    // The canonical text of the flow's current state: its journal folded in, its revision kept.
    text = encodeFlowState(state);
  } catch (e) {
    if (e instanceof FlowTooLargeError) return fail(`error: ${e.message}`);
    throw e;
  }
  const existing = await target.read(flowId);
  if (existing !== null) {
    const there = canonicalText(existing);
    if (there.text === text) {
      io.out(`already there ${flowId}\n`);
      return "already there";
    }
    return fail(`conflict ${flowId}: ${conflictReason(there, state.revision)} (not migrated)`);
  }
  const what = `${flowId} (${state.status}, ${state.flow_name})`;
  if (dryRun) {
    io.out(`would migrate ${what}\n`);
    return "migrated";
  }
  try {
    // A store accepts a text carrying the revision after the expected one; for a flow it does not
    // hold yet, any expected revision passes the check, so `revision - 1` writes the flow at the
    // revision it has in the source (-1 for a reference file without a revision, written at 0).
    await target.commit({ writes: [textWrite(flowId, text, state.revision - 1)], deletes: [] });
  } catch (e) {
    // Another process wrote or locked this flow in the target meanwhile: this flow only. Anything
    // about the store as a whole (unreachable, unwritable) ends the migration as one error line.
    if (e instanceof StaleStateError || e instanceof StoreLockedError) {
      return fail(`error: cannot migrate ${flowId}: ${e.message}`);
    }
    throw e;
  }
  const back = await target.read(flowId);
  const backText = back === null ? null : canonicalText(back).text;
  if (backText !== text) {
    return fail(
      `error: verification failed for ${flowId}: ${backText === null ? "the target does not have it" : "the target's copy differs from the source"} after writing`,
    );
  }
  io.out(`migrated ${what}\n`);
  return "migrated";
}

/** A stored flow's canonical text (as migrate writes it), or why it does not decode. */
function canonicalText(
  stored: StoredFlow,
): { readonly text: string; readonly revision: number } | { readonly text: null; readonly problem: string } {
  const decoded = decodeStoredFlow(stored);
  if (!decoded.ok) return { text: null, problem: decoded.reason };
  try {
    return { text: encodeFlowState(decoded.state), revision: decoded.state.revision };
  } catch (e) {
    if (e instanceof FlowTooLargeError) return { text: null, problem: e.problem };
    throw e;
  }
}

function conflictReason(there: ReturnType<typeof canonicalText>, sourceRevision: number): string {
  if (there.text === null) return `the target's copy is corrupt (${there.problem})`;
  if (there.revision === sourceRevision) {
    return `the target has a different flow at the same revision ${sourceRevision}`;
  }
  return `the target has revision ${there.revision}, the source revision ${sourceRevision}`;
}

async function closeQuietly(store: FlowStore): Promise<void> {
  try {
    await store.close?.();
  } catch {
    // closing is best effort: the command's answer is already decided
  }
}
