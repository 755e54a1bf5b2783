export type StoreErrorKind = "locked" | "read-only" | "full" | "corrupt" | "too-new" | "cannot-open" | "failed";

/** Every failure of the store, with a message that says what to do next. */
export class StoreError extends Error {
  override readonly name = "StoreError";
  constructor(
    readonly kind: StoreErrorKind,
    /** The database file, as configured (store.path). */
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function advice(kind: Exclude<StoreErrorKind, "too-new">, path: string, detail: string): string {
  switch (kind) {
    case "locked":
      return `another energy2mqtt (or another program) is using ${path}: stop it, or set store.path to another file`;
    case "read-only":
      return `${path} is read-only (${detail}): let the user running energy2mqtt write to the file and its folder, or set store.path to a writable place`;
    case "full":
      return `the disk holding ${path} is full: free some space, or set store.path to a disk with room`;
    case "corrupt":
      return `${path} is damaged or is not an energy2mqtt database (${detail}): move it aside so that a new one is started, restore a backup, or set store.path`;
    case "cannot-open":
      return `cannot open ${path} (${detail}): check that its folder exists and can be written, or set store.path`;
    case "failed":
      return `the store ${path} failed: ${detail}`;
  }
}

function kindOfCode(code: string): Exclude<StoreErrorKind, "too-new"> {
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "locked";
  if (code.startsWith("SQLITE_READONLY")) return "read-only";
  if (code.startsWith("SQLITE_FULL") || code === "ENOSPC") return "full";
  if (code.startsWith("SQLITE_CORRUPT") || code.startsWith("SQLITE_NOTADB")) return "corrupt";
  if (code.startsWith("SQLITE_CANTOPEN") || code === "ENOENT" || code === "ENOTDIR") return "cannot-open";
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") return "read-only";
  return "failed";
}

/** Maps SQLite result codes (and file system errors from creating the folder) to a StoreError. */
export function toStoreError(error: unknown, path: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  const kind = typeof code === "string" ? kindOfCode(code) : "failed";
  return new StoreError(kind, path, advice(kind, path, detail), { cause: error });
}

export function tooNewError(path: string, found: number, known: number): StoreError {
  return new StoreError(
    "too-new",
    path,
    `${path} was written by a newer energy2mqtt (schema version ${found}; this one knows up to ${known}): upgrade energy2mqtt, or set store.path to another file`,
  );
}

/** Runs a store operation, turning whatever it throws into a StoreError. */
export function guard<T>(path: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    throw toStoreError(error, path);
  }
}
