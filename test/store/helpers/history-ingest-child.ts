// Writes batches of 100 data points to the store named on the command line, for ever, and prints
// "committed N" after each batch's transaction has committed; the test kills it with SIGKILL.
import { openStore } from "../../../src/store/index.js";
import { points, T0 } from "./history-records.js";

const BATCH = 100;
const store = openStore(process.argv[2] ?? "");
for (let batch = 0; ; batch++) {
  store.history.write(points(BATCH, T0 + batch * BATCH * 300_000));
  process.stdout.write(`committed ${batch}\n`);
}
