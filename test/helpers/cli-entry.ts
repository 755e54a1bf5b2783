// Runs the CLI from src/, as bin/energy2mqtt.js runs it from dist/.
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
