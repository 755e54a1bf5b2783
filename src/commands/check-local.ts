import type { Config } from "../config/index.js";
import { controlMapOf } from "../local/index.js";
import { LocalDongle, settingsReads } from "../sources/index.js";
import { systemClock } from "../time/index.js";

/** How long `check` waits for one answer; a passive dongle is listened to six times as long. */
const ANSWER_MS = 3_000;

/**
 * `check`'s report of each configured dongle: reachable or not, the model and serial its identity
 * registers give, and the round trip of that first request. One connection attempt each: `run`
 * keeps retrying, `check` says what it found. 1 when `source: local` and no dongle answered (with
 * `source: auto` the cloud carries the devices meanwhile, which it says).
 */
export async function checkLocal(
  config: Config,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  if (config.local.length === 0) {
    if (config.source === "local") err.write("local: source is local but no dongle is listed under local:\n");
    return config.source === "local" ? 2 : 0;
  }
  const results = await Promise.all(
    config.local.map(async (dongle, index) => {
      const link = new LocalDongle({ ...dongle, clock: systemClock, timeoutMs: ANSWER_MS });
      const label = `local[${index}]: ${link.where}${dongle.passive ? " (passive)" : ""}`;
      try {
        const found = await link.identify();
        // The settings banks too, once each: a bank the dongle leaves unanswered is named below.
        if (!dongle.passive && found.detected.model !== "Unknown")
          await link.probe(settingsReads(controlMapOf(found.detected)));
        const controller = found.devices[0];
        const modules = found.devices.filter((device) => device.kind === "battery module").length;
        const trip = found.roundTripMs === undefined ? "listened only" : `round trip ${found.roundTripMs} ms`;
        const told = found.detected.from === "banks" ? " (told from its banks: its identity bank did not answer)" : "";
        const silent = link.unansweredBlocks();
        const blocks =
          silent.length > 0
            ? `; these blocks did not answer: ${silent.join(", ")} (their entities wait until they do; run asks them again, less often)`
            : "";
        return {
          ok: true,
          line: `${label}: reachable; ${found.detected.model}${told}, serial ${controller?.serial ?? "unknown"}, dongle ${found.dongleSerial || "unknown"}, ${modules} battery module(s); ${trip}${blocks}`,
        };
      } catch (error) {
        return {
          ok: false,
          line: `${label}: not reachable (${(error as Error).message}): check its host and port, and that the dongle is on the LAN`,
        };
      } finally {
        link.close();
      }
    }),
  );
  for (const result of results) (result.ok ? out : err).write(`${result.line}\n`);
  const anyAnswered = results.some((result) => result.ok);
  if (config.source === "auto" && !anyAnswered)
    err.write(
      "local: no dongle answered: with source: auto, `energy2mqtt run` reads every device over the cloud until one does\n",
    );
  return config.source === "local" && !anyAnswered ? 1 : 0;
}
