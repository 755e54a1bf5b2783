// What the docs scripts share: write a generated file when it changed, or with --check only say
// whether it is up to date (exit 1 when not).
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export function updateGenerated(file: string, render: (current: string) => string, what: string, script: string): void {
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const updated = render(current);
  if (process.argv.includes("--check")) {
    if (updated !== current) {
      process.stderr.write(`${file}'s ${what} is out of date: run npm run ${script}\n`);
      process.exit(1);
    }
  } else if (updated !== current) {
    writeFileSync(file, updated);
    process.stdout.write(`${file}: ${what} updated\n`);
  }
}
