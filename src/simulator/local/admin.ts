import { z } from "zod";
import { type Answer, invalidIssues, notFound, ok } from "../http/envelope.js";
import type { SimDongle } from "./dongle.js";
import type { LocalDongles } from "./dongles.js";

/** 0 turns a periodic fault off. */
const seconds = z.number().min(0).max(86_400);

const dongleFaults = z.strictObject({
  /** Drop every connection this often (simulated seconds); 0: never. */
  drop_every_s: seconds.optional(),
  /** The next N answers go out with a zero-filled tail, their CRC failing. */
  corrupt_frames: z.number().int().min(0).max(10_000).optional(),
  /** The battery's addresses (LV packs, the HV stack's BCU) answer nothing. */
  silent_battery: z.boolean().optional(),
  /** Send a LAN-settings broadcast this often (simulated seconds); 0: never. */
  broadcast_every_s: seconds.optional(),
  /** A write's echo goes out this much later (simulated seconds), as a slow chain's does; 0: at once. */
  echo_delay_s: seconds.optional(),
  /** Every answer carries this device serial (another inverter's, or one no device has); "": each device's own. */
  answer_as: z
    .string()
    .regex(/^[\x20-\x7e]{0,10}$/, "a serial is up to 10 printable ASCII characters")
    .optional(),
});

function describe(dongle: SimDongle) {
  const { faults } = dongle;
  return {
    dongle_serial: dongle.chain.dongleSerial,
    device_serial: dongle.chain.deviceSerial,
    kind: dongle.chain.kind,
    model: dongle.chain.model,
    port: dongle.port,
    clients: dongle.clientCount,
    faults: {
      drop_every_s: (faults.dropEveryMs ?? 0) / 1000,
      corrupt_frames: faults.corruptFrames,
      silent_battery: faults.silentBattery,
      broadcast_every_s: (faults.broadcastEveryMs ?? 0) / 1000,
      answer_as: faults.answerAs ?? "",
      echo_delay_s: (faults.echoDelayMs ?? 0) / 1000,
    },
    stats: { ...dongle.stats },
    writes: dongle.writesReceived.map((write) => ({
      client_port: write.clientPort,
      address: write.address,
      register: write.register,
      value: write.value,
      outcome: write.outcome ?? "pending",
    })),
  };
}

/**
 * `/__admin/dongles`: the dongles and their faults (docs/simulator.md). Undefined when the path
 * is not about dongles.
 */
export function handleDongleAdmin(
  local: LocalDongles | undefined,
  method: string,
  path: string,
  body: unknown,
): Answer | undefined {
  if (path !== "/dongles" && !path.startsWith("/dongles/")) return undefined;
  if (!local) return notFound("no dongles: start the simulator with --local-port (0 for free ports)");
  if (method === "GET" && path === "/dongles") return ok(local.dongles.map(describe));
  const match = /^\/dongles\/([^/]+)$/.exec(path);
  if (!match?.[1]) return notFound(`no admin action ${method} ${path}`);
  const serial = decodeURIComponent(match[1]);
  const dongle = local.find(serial);
  if (!dongle) return notFound(`no dongle with the dongle or device serial "${serial}"`);
  if (method === "GET") return ok(describe(dongle));
  if (method !== "POST") return notFound(`no admin action ${method} ${path}`);
  const parsed = dongleFaults.safeParse(body ?? {});
  if (!parsed.success) {
    return invalidIssues(parsed.error.issues);
  }
  const change = parsed.data;
  const periodic = (value: number | undefined) => (value ? Math.round(value * 1000) : undefined);
  dongle.setFaults({
    ...(change.corrupt_frames === undefined ? {} : { corruptFrames: change.corrupt_frames }),
    ...(change.silent_battery === undefined ? {} : { silentBattery: change.silent_battery }),
    ...(change.drop_every_s === undefined ? {} : { dropEveryMs: periodic(change.drop_every_s) }),
    ...(change.broadcast_every_s === undefined ? {} : { broadcastEveryMs: periodic(change.broadcast_every_s) }),
    ...(change.answer_as === undefined ? {} : { answerAs: change.answer_as }),
    ...(change.echo_delay_s === undefined ? {} : { echoDelayMs: periodic(change.echo_delay_s) }),
  });
  return ok(describe(dongle));
}
