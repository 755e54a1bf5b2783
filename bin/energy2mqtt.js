#!/usr/bin/env node
import { tuneV8ForDaemon } from "../dist/memory.js";

if (process.argv[2] === "run") tuneV8ForDaemon();
const { main } = await import("../dist/cli.js");

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
