// npm run docs:entities: writes docs/entities.md from the simulator's demo house (started
// in-process on a free port). With --check it only says whether the file is up to date (exit 1 when not).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { demoEntityReference } from "../src/homeassistant/entity-reference.js";

const FILE = "docs/entities.md";
const current = existsSync(FILE) ? readFileSync(FILE, "utf8") : "";
const updated = await demoEntityReference();
if (process.argv.includes("--check")) {
  if (updated !== current) {
    process.stderr.write(`${FILE} is out of date: run npm run docs:entities\n`);
    process.exit(1);
  }
} else if (updated !== current) {
  writeFileSync(FILE, updated);
  process.stdout.write(`${FILE}: entity reference updated\n`);
}
