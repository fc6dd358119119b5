// The journals a file store keeps open between commits: opening and closing the journal
// on every call cost two system calls and a path lookup each time; a kept descriptor is written
// again only when, under the flow's lock, it is provably the file at the journal's path (same
// device and inode, still linked, the size the store expects: `sameOpenFile`). Otherwise, and
// whenever the flow is snapshotted, removed, read again after another process's change, or its
// commit fails, the descriptor is closed and the journal opened by path as before. At most
// `limit` descriptors are kept (the least recently used is closed).
import type { BigIntStats } from "node:fs";
import * as fs from "node:fs";

/** How many journals a store keeps open (a few dozen flows in turn stay O(1) without exhausting fds). */
export const MAX_OPEN_JOURNALS = 32;

export class OpenJournals {
  /** Flow id → descriptor, least recently used first. */
  private readonly fds = new Map<string, number>();

  constructor(readonly limit: number = MAX_OPEN_JOURNALS) {}

  get size(): number {
    return this.fds.size;
  }

  /** Takes the flow's descriptor out of the set: the caller keeps it again or closes it. */
  take(flowId: string): number | undefined {
    const fd = this.fds.get(flowId);
    if (fd !== undefined) this.fds.delete(flowId);
    return fd;
  }

  /** Keeps `fd` open for the flow (most recently used); closes what falls out of the limit. */
  keep(flowId: string, fd: number): void {
    const old = this.fds.get(flowId);
    if (old !== undefined && old !== fd) closeQuietly(old);
    this.fds.delete(flowId);
    if (this.limit <= 0) {
      closeQuietly(fd);
      return;
    }
    this.fds.set(flowId, fd);
    while (this.fds.size > this.limit) {
      const [oldest, oldestFd] = this.fds.entries().next().value as [string, number];
      this.fds.delete(oldest);
      closeQuietly(oldestFd);
    }
  }

  /** Closes the flow's descriptor, if one is kept. */
  close(flowId: string): void {
    const fd = this.take(flowId);
    if (fd !== undefined) closeQuietly(fd);
  }

  closeAll(): void {
    for (const fd of this.fds.values()) closeQuietly(fd);
    this.fds.clear();
  }
}

/**
 * Whether an open descriptor (`open`, its fstat) is the file a path names (`atPath`, its stat),
 * both taken under the flow's lock: the same device and inode, a regular file that still has a
 * link (a journal removed and replaced must never receive entries: they would be lost), and
 * `size` bytes long (what the store expects to append after).
 */
export function sameOpenFile(open: BigIntStats, atPath: BigIntStats, size: number): boolean {
  return (
    open.nlink > 0n &&
    open.isFile() &&
    open.dev === atPath.dev &&
    open.ino === atPath.ino &&
    open.size === BigInt(size) &&
    atPath.size === open.size
  );
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed, or the file system failed: nothing to keep either way
  }
}
