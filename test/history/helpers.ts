import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/index.js";

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
