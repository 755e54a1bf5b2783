import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** The built page (npm run build puts it in dist/web/public). */
export function defaultAssetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, "dist", "web", "public");
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

export interface Asset {
  readonly type: string;
  readonly body: Buffer;
  /** The same, gzipped once at start: what a browser receives. */
  readonly gzip: Buffer;
}

/** The page's files, read once: only these names are served. */
export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of ["index.html", "app.js", "app.css"]) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    const ext = name.slice(name.lastIndexOf("."));
    const body = readFileSync(file);
    assets.set(name, { type: TYPES[ext] ?? "application/octet-stream", body, gzip: gzipSync(body, { level: 9 }) });
  }
  return assets;
}

/** index.html with the ingress prefix, so every URL the page builds is under it. */
export function indexFor(index: Buffer, ingressPath: string | undefined): string {
  const base = ingressPath ? `${ingressPath.replace(/\/+$/, "")}/` : "./";
  const safe = base.replace(/[^A-Za-z0-9/_.:-]/g, "");
  return index.toString("utf8").replace("%BASE%", safe);
}
