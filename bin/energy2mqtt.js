#!/usr/bin/env node
import { tuneV8ForDaemon } from "../dist/cli/memory.js";

if (process.argv[2] === "run") tuneV8ForDaemon();
// A reader that goes away (`energy2mqtt export ... | head`) ends any command quietly, not with EPIPE.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});
const { main } = await import("../dist/cli/main.js");

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
