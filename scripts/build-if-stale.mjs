#!/usr/bin/env node
// `npm start`'s first step: compiles src/ into dist/ only when dist/ is missing or older than a
// source file, so a second start takes no time and a fresh build needs no dev dependencies.
// Plain JavaScript with Node's own modules: it must run before anything is compiled.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = process.cwd();
// tsc writes every output on each build, so the entry point's time is the build's time.
const OUTPUT = join(root, "dist", "cli", "main.js");
const INPUTS = ["src", "tsconfig.json", "tsconfig.build.json", "package.json"];

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

function reason() {
  if (!existsSync(join(root, "src"))) return undefined; // an installed package: dist/ is all there is
  if (!existsSync(OUTPUT)) return "dist/ is missing";
  const built = statSync(OUTPUT).mtimeMs;
  const changed = INPUTS.find((input) => newest(join(root, input)) > built);
  return changed ? `${changed} changed since the last build` : undefined;
}

const why = reason();
if (why) {
  process.stderr.write(`energy2mqtt: building (${why})\n`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const build = spawnSync(npm, ["run", "-s", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    process.stderr.write(
      "energy2mqtt: the build failed; `npm ci` installs what it needs (TypeScript is a dev dependency)\n",
    );
    process.exit(build.status ?? 1);
  }
}
