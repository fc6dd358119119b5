// The Node implementation of the file system seen by the file builtins (stdlib/files.ts).
import * as fs from "node:fs";
import type { FileStat, HostFileSystem } from "../stdlib/index";
import { readRegularFile } from "./regular-file";

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
    try {
      // Regular files only, opened without blocking (a FIFO inside the root never hangs a flow).
      return new Uint8Array(readRegularFile(path, maxBytes));
    } catch {
      return null;
    }
  },
};
