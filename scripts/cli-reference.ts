// npm run docs:cli: rewrites README.md's CLI reference from the commander program.
// With --check it only says whether the README is up to date (exit 1 when not).
import { readFileSync, writeFileSync } from "node:fs";
import { withCliReference } from "../src/cli-reference.js";

const readme = readFileSync("README.md", "utf8");
const updated = withCliReference(readme);
if (process.argv.includes("--check")) {
  if (updated !== readme) {
    process.stderr.write("README.md's CLI reference is out of date: run npm run docs:cli\n");
    process.exit(1);
  }
} else if (updated !== readme) {
  writeFileSync("README.md", updated);
  process.stdout.write("README.md: CLI reference updated\n");
}
