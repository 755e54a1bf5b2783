/**
 * Bundles the web page (src/web/client) into dist/web/public: one script, one stylesheet and
 * index.html, minified, nothing fetched from another host. Run by `npm run build`.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export async function buildWebAssets(outdir = join(root, "dist", "web", "public")): Promise<string> {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(root, "src", "web", "client", "main.ts") },
    outdir,
    bundle: true,
    minify: true,
    format: "esm",
    target: ["chrome109", "firefox115", "safari15"],
    legalComments: "none",
    logLevel: "warning",
  });
  copyFileSync(join(root, "src", "web", "client", "index.html"), join(outdir, "index.html"));
  return outdir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = await buildWebAssets(process.argv[2]);
  process.stdout.write(`web page built into ${out}\n`);
}
