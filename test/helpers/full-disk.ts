import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface FullDisk {
  /** A folder on a small file system of its own. */
  readonly dir: string;
  /** Fills what is left of it, so that the next write fails with ENOSPC. */
  fill(): void;
  /** Frees what fill() took. */
  free(): void;
  unmount(): void;
}

/**
 * A real small disk: a tmpfs mounted for the test (as root, as in CI). Undefined where mounting
 * is not allowed (not root, or no CAP_SYS_ADMIN).
 */
export function mountSmallDisk(sizeKb = 2048): FullDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), "e2m-disk-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeKb}k`, "tmpfs", dir], { encoding: "utf8" });
  if (mounted.error || mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = join(dir, "filler");
  return {
    dir,
    fill() {
      mkdirSync(dir, { recursive: true });
      const fd = openSync(filler, "a");
      const block = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      spawnSync("umount", [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
