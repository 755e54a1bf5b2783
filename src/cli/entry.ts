// The CLI as a process of its own, for the daemon's child runs (the web page's backtest): from
// dist/ as bin/energy2mqtt.js runs it, or from src/ under tsx.
import { main } from "./main.js";

process.exitCode = await main(process.argv.slice(2));
