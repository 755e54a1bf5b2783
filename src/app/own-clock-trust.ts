import { execFile } from "node:child_process";
import type { OwnClockVerdict } from "../control/index.js";
import { type Clock, systemClock } from "../time/index.js";

/**
 * This code's year: a clock that says an earlier one has lost its time (a Raspberry Pi with no
 * real-time clock starts where it last stopped, or in 1970), and setting an inverter by it would
 * do harm.
 */
const BUILD_YEAR = 2026;
const TIMEDATECTL_TIMEOUT_MS = 2_000;

/** What systemd says of the system clock's synchronisation: "yes", "no", or undefined when it cannot be asked (a container, no systemd). */
export type NtpState = () => Promise<"yes" | "no" | undefined>;

/** `timedatectl show -p NTPSynchronized --value`. */
export const timedatectlNtpState: NtpState = () =>
  new Promise((resolve) => {
    execFile(
      "timedatectl",
      ["show", "-p", "NTPSynchronized", "--value"],
      { timeout: TIMEDATECTL_TIMEOUT_MS },
      (error, stdout) => {
        const answer = String(stdout).trim();
        resolve(error ? undefined : answer === "yes" ? "yes" : answer === "no" ? "no" : undefined);
      },
    );
  });

/**
 * How the daemon judges its own clock before it sets a device's by it (docs/clock.md): its year
 * must not be before this code's, and when it runs on the system clock and systemd can say,
 * that clock must be synchronised (NTP). A virtual clock (tests, the demo) is judged by its year.
 */
export function ownClockJudge(clock: Clock, ntpState: NtpState = timedatectlNtpState): () => Promise<OwnClockVerdict> {
  return async () => {
    const year = new Date(clock.now()).getUTCFullYear();
    if (year < BUILD_YEAR)
      return {
        trusted: false,
        why: `the daemon's own clock says ${year}, before this release's year (${BUILD_YEAR}), so it has lost its time; set the machine's clock (enable NTP)`,
      };
    if (clock !== systemClock) return { trusted: true, how: "its year (a virtual clock)" };
    const ntp = await ntpState();
    if (ntp === "no")
      return {
        trusted: false,
        why: "the system clock is not synchronised (timedatectl: NTPSynchronized=no); enable NTP (timedatectl set-ntp true)",
      };
    return ntp === "yes"
      ? { trusted: true, how: "the system clock is synchronised (NTP)" }
      : { trusted: true, how: "its year (the system's NTP state cannot be read here)" };
  };
}
