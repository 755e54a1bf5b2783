import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { discoverInventory, type Inventory } from "../../src/sources/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { startTestSimulator } from "../helpers/simulator.js";

/** A real SQLite file in a fresh temp folder. */
export function tempStore(prefix: string): { store: Store; dir: string; path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, "history.db");
  const store = openStore(path);
  return {
    store,
    dir,
    path,
    cleanup: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Paths of the requests a client made (query included), to assert what was asked for. */
export function requestLog(): { paths: string[]; onRequest: (event: { path: string }) => void } {
  const paths: string[] = [];
  return { paths, onRequest: (event) => paths.push(event.path) };
}

type TestSimulator = Awaited<ReturnType<typeof startTestSimulator>>;

/** For a describe block: the demo account in the simulator on a manual clock from `start`, and its devices. */
export function useDemoAccount(start: number): { readonly sim: TestSimulator; readonly inventory: Inventory } {
  let sim: TestSimulator | undefined;
  let inventory: Inventory | undefined;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start, requestsPerMinute: 100_000 });
    inventory = await discoverInventory(sim.clientFor("owner"));
  });
  afterAll(async () => {
    await sim?.stop();
  });
  return {
    get sim() {
      if (!sim) throw new Error("the simulator starts in beforeAll");
      return sim;
    },
    get inventory() {
      if (!inventory) throw new Error("the inventory is read in beforeAll");
      return inventory;
    },
  };
}
