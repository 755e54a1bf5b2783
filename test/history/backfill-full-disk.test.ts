import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { RateBudget } from "../../src/cloud/index.js";
import { startBackfill } from "../../src/history/index.js";
import type { ArchiveReport } from "../../src/sources/cloud/index.js";
import { cloudHistory } from "../../src/sources/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { type FullDisk, mountSmallDisk } from "../helpers/full-disk.js";
import { useDemoAccount } from "./helpers.js";

const START = Date.UTC(2025, 2, 20, 12, 0, 0);

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("the history backfill on a full disk", () => {
  const account = useDemoAccount(START);

  it("stops asking for what it cannot store, retries later, and fills the days once there is room", async () => {
    // A real full disk where the test may mount one (root, as in CI); else SQLite's own size cap,
    // which answers SQLITE_FULL the same way but cannot be lifted on the open store.
    const disk: FullDisk | undefined = mountSmallDisk();
    const dir = disk?.dir ?? mkdtempSync(join(tmpdir(), "e2m-full-"));
    const path = join(dir, "history.db");
    let store: Store;
    if (disk) {
      console.info("[full disk] a 2 MB tmpfs, filled");
      store = openStore(path);
      // Nothing left in the journal to reuse: the next commit needs new room on the disk.
      const other = new Database(path);
      other.pragma("wal_checkpoint(TRUNCATE)");
      other.close();
      disk.fill();
    } else {
      console.info("[full disk] mount is not allowed here: SQLite's max_page_count stands in for a full disk");
      openStore(path).close();
      const sized = new Database(path);
      const used = Number(sized.pragma("page_count", { simple: true }));
      sized.close();
      store = openStore(path, { maxPages: used });
    }
    let requests = 0;
    const passes: ArchiveReport[] = [];
    const client = account.sim.clientFor("owner", {
      budget: new RateBudget({ limit: 100_000, windowMs: 60_000 }),
      onRequest: () => requests++,
    });
    const backfill = startBackfill({
      source: cloudHistory(client),
      history: store.history,
      inventory: () => account.inventory,
      clock: account.sim.simulator.clock,
      onPass: (report) => passes.push(report),
      storeRetryMs: 50,
    });
    try {
      await until(() => passes.length >= 1, "a first pass");
      // The retry waits for the store-retry delay on the simulator's clock, not on the wall.
      await backfill.idle();
      expect(passes).toHaveLength(1);
      account.sim.simulator.clock.advance(50);
      await until(() => passes.length >= 2, "a pass and its retry");
      const [first, retry] = passes;
      console.info(`[full disk] requests in the first pass: ${first?.requests}, in its retry: ${retry?.requests}`);
      expect(first?.storeFailure?.kind).toBe("full");
      expect(first?.storeFailure?.message).toContain("is full");
      // Two tasks run at once: what was in flight when the first answer could not be stored,
      // and nothing after it. A pass with room reads every task (below).
      expect(first?.requests).toBeLessThanOrEqual(2);
      expect(retry?.storeFailure?.kind).toBe("full");
      expect(retry?.requests).toBeLessThanOrEqual(2);
      // Paused: a device coming back asks for a pass, and none starts before the retry is due.
      const before = passes.length;
      backfill.trigger();
      await backfill.idle();
      expect(passes.length).toBe(before);

      if (!disk) return;
      disk.free();
      await backfill.idle();
      // The second retry comes twice as late.
      account.sim.simulator.clock.advance(100);
      await until(() => passes.at(-1)?.storeFailure === undefined, "a pass with room");
      const done = passes.at(-1);
      expect(done?.failures).toEqual([]);
      expect(done?.requests).toBeGreaterThan(10);
      expect(store.history.completeDays("inverter.point", "SD2024G001").size).toBe(2);
    } finally {
      await backfill.stop();
      store.close();
      if (disk) disk.unmount();
      else rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
