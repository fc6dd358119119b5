// The Node implementation of the file system seen by the file builtins (stdlib/files.ts).
import * as fs from "node:fs";
import type { FileStat, HostFileSystem } from "../stdlib/files";

export const nodeFileSystem: HostFileSystem = {
  realpath(path: string): string | null {
    try {
      return fs.realpathSync.native(path);
    } catch {
      return null;
    }
  },
  stat(path: string): FileStat | null {
    try {
      const s = fs.statSync(path);
      return { isFile: s.isFile(), size: s.size };
    } catch {
      return null;
    }
  },
  readFile(path: string, maxBytes: number): Uint8Array | null {
    let fd: number | undefined;
    try {
      fd = fs.openSync(path, "r");
      // Chunked, so that a small file does not cost a maxBytes allocation.
      const chunks: Buffer[] = [];
      let length = 0;
      while (length < maxBytes) {
        const chunk = Buffer.alloc(Math.min(65536, maxBytes - length));
        const n = fs.readSync(fd, chunk, 0, chunk.length, null);
        if (n === 0) break;
        chunks.push(chunk.subarray(0, n));
        length += n;
      }
      return new Uint8Array(Buffer.concat(chunks, length));
    } catch {
      return null;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  },
};
