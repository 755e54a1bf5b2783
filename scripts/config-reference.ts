// npm run docs:config: rewrites README.md's configuration reference from the zod schema.
// With --check it only says whether the README is up to date (exit 1 when not).
import { readFileSync, writeFileSync } from "node:fs";
import { withConfigReference } from "../src/config/reference.js";

const readme = readFileSync("README.md", "utf8");
const updated = withConfigReference(readme);
if (process.argv.includes("--check")) {
  if (updated !== readme) {
    process.stderr.write("README.md's configuration reference is out of date: run npm run docs:config\n");
    process.exit(1);
  }
} else if (updated !== readme) {
  writeFileSync("README.md", updated);
  process.stdout.write("README.md: configuration reference updated\n");
}
