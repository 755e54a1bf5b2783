import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The real captures under test/fixtures/local-captures (see its README for their origin and licence). */
export const CAPTURES = join(import.meta.dirname, "..", "fixtures", "local-captures");

export const CAPTURE_FILES = {
  aio612: "aio_a/aio_arm612_5min.log",
  aio620: "aio_a/aio_arm620_redetect_7min.log",
  ac1x: "ems_2_inv_3_bat_a/ac_arm282_1x_givbat512gen3_30min.log",
  ac2x: "ems_2_inv_3_bat_a/ac_arm282_2x_givbat52_30min.log",
  ems30: "ems_2_inv_3_bat_a/ems_arm1036_30min.log",
  ems60s: "ems_2_inv_3_bat_a/ems_arm1036_60s.log",
  gatewayDay: "gateway_2aio_a/gateway_gaaa0014_10min_daylight.log",
  gatewayNight: "gateway_2aio_a/gateway_gaaa0014_10min_night.log",
  hybridPoll: "hybrid_2_bat_a/hybrid_gen1_arm449_0x11_poll_10min.log",
  hybrid60: "hybrid_2_bat_a/hybrid_gen1_arm449_givbat82_givbat95gen3_60min.log",
  gen2: "hybrid_gen2_1_bat_a/hybrid_gen2_arm920_60s.log",
  hvGen3: "hybrid_hv_gen3_a/givhy80g3hv_hass295_120s.log",
  threePhase10: "three_phase_hv_a/giv3hy11_da011_10min.log",
  threePhaseDetect: "three_phase_hv_a/giv3hy11_da011_detect_10min.log",
  threePhaseHass: "three_phase_hv_a/giv3hy11_hass174_180s.txt",
} as const;

export type CaptureName = keyof typeof CAPTURE_FILES;

export function captureText(name: CaptureName): string {
  return readFileSync(join(CAPTURES, CAPTURE_FILES[name]), "utf8");
}
