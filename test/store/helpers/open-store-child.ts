// Opens the store given on the command line in its own process and prints what happened as JSON.
import { openStore, StoreError } from "../../../src/store/index.js";

const path = process.argv[2] ?? "";
try {
  const store = openStore(path, { busyTimeoutMs: 100 });
  store.close();
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (error) {
  const kind = error instanceof StoreError ? error.kind : undefined;
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(JSON.stringify({ ok: false, name: (error as Error).name, kind, message }));
}
