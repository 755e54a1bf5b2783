// Runs the CLI from source, as bin/energy2mqtt.js runs it from dist.
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
