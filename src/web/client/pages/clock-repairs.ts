import type { LiveDevice } from "../../api-types.js";
import { h } from "../dom.js";

/** "1 h ahead of" or "90 s behind": whole hours (a missed GMT/BST change) read as hours. */
export function driftWords(driftSeconds: number): string {
  const size = Math.abs(driftSeconds);
  const hours = Math.round(size / 3600);
  const amount = hours > 0 && Math.abs(size - hours * 3600) <= 2 ? `${hours} h` : `${Math.round(size)} s`;
  return `${amount} ${driftSeconds > 0 ? "ahead of" : "behind"} the house's time`;
}

function clockRepair(device: LiveDevice, problem: NonNullable<LiveDevice["clockProblem"]>): HTMLElement {
  const off = problem.driftSeconds === null ? "off" : driftWords(problem.driftSeconds);
  const request = `{"serial": "${problem.serial}"}`;
  return h(
    "section",
    { class: "warning repair", "data-repair": "clock", "data-device": device.id },
    h("h3", {}, `${device.name}: its clock is ${off}`),
    h(
      "p",
      {},
      "Its timed slots (charge, discharge, export, pause) run by that clock, so they start at the wrong time.",
    ),
    problem.message ? h("p", { class: "repair-why" }, problem.message) : null,
    h(
      "p",
      { class: "repair-fix" },
      h("strong", {}, "To fix: "),
      "press ",
      h("strong", {}, "Sync clock"),
      " on the device in Home Assistant, or send ",
      h("code", {}, request),
      " to ",
      h("code", {}, "bridge/request/clock/sync"),
      "; or set ",
      h("code", {}, "clock: {sync: auto}"),
      " to let the daemon keep it right over the LAN.",
    ),
  );
}

/**
 * The Now page's repairs (Home Assistant's word): one warning for each device whose clock is off
 * and left so (docs/clock.md), naming it, its drift and how to fix it. Empty when there are none.
 */
export function clockRepairs(devices: readonly LiveDevice[]): HTMLElement[] {
  return devices.flatMap((device) => (device.clockProblem ? [clockRepair(device, device.clockProblem)] : []));
}
