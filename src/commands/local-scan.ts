import { networkInterfaces } from "node:os";
import { z } from "zod";
import { acceptsConnection } from "./local-scan-connect.js";
import { identifyDongle } from "./local-scan-identify.js";
import { byAddress, type Endpoint, type ScanResult, scanJson, scanText } from "./local-scan-report.js";
import { hostsOf, type OwnSubnet, ownSubnets, subnetSchema, subnetText } from "./local-scan-subnets.js";
import { mapBounded } from "./map-bounded.js";
import { writeOptionErrors } from "./option-errors.js";

/** Connection attempts at a time: a /24 on two ports is over in a few seconds, and no home router minds. */
const CONNECTS = 64;
/** Dongles asked at a time; each is one connection and one to five requests. */
const IDENTIFIES = 16;
/** How long one request to a dongle waits for its answer (a dongle answers in well under a second). */
const ANSWER_MS = 3_000;

const PORTS_HINT = "give TCP ports from 1 to 65535 separated by commas, e.g. 8899,8898";

function portList(text: string, ctx: z.RefinementCtx, allowNone: boolean): number[] {
  if (allowNone && text.trim() === "none") return [];
  const parts = text.split(",").map((part) => part.trim());
  const ports = parts.map(Number);
  if (parts.some((part) => !/^\d{1,5}$/.test(part)) || ports.some((port) => port < 1 || port > 65_535)) {
    ctx.addIssue({ code: "custom", message: `"${text}" is not a list of ports: ${PORTS_HINT}` });
    return z.NEVER;
  }
  return [...new Set(ports)];
}

const TIMEOUT_HINT = "give the connect timeout in ms, 50 to 10000";

const optionsSchema = z
  .object({
    subnet: subnetSchema.optional(),
    ports: z
      .string()
      .default("8899")
      .transform((text, ctx) => portList(text, ctx, false)),
    modbusPorts: z
      .string()
      .default("502")
      .transform((text, ctx) => portList(text, ctx, true)),
    timeout: z.coerce
      .number({ error: TIMEOUT_HINT })
      .int(TIMEOUT_HINT)
      .min(50, TIMEOUT_HINT)
      .max(10_000, TIMEOUT_HINT)
      .default(500),
    json: z.boolean().default(false),
  })
  .superRefine((options, ctx) => {
    const both = options.ports.filter((port) => options.modbusPorts.includes(port));
    if (both.length > 0)
      ctx.addIssue({
        code: "custom",
        path: ["modbusPorts"],
        message: `port ${both.join(", ")} is in --ports too: a port is tried either as a dongle's or as Modbus TCP`,
      });
  });

export type LocalScanOptions = z.input<typeof optionsSchema>;

const named = ({ subnet, interfaces }: OwnSubnet): string =>
  `${subnetText(subnet)}${interfaces.length > 0 ? ` (${interfaces.join(", ")})` : ""}`;

interface Target extends Endpoint {
  readonly modbus: boolean;
}

/**
 * `energy2mqtt local scan`: tries each address of `--subnet` (else of the machine's own subnets,
 * each at most its /24) on the dongles' port and on Modbus TCP's, a bounded number of connections
 * at a time; asks each dongle that takes the connection who its device is, and prints what
 * answered where and the `local:` lines to paste. Only the named addresses are contacted, and
 * only when the command runs. 0 when a dongle answered, 1 when none did, 2 for bad options.
 */
export async function runLocalScanCommand(
  raw: LocalScanOptions,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const parsed = optionsSchema.safeParse(raw);
  if (!parsed.success) {
    writeOptionErrors(err, parsed.error);
    return 2;
  }
  const options = parsed.data;
  const subnets: OwnSubnet[] = options.subnet
    ? [{ subnet: options.subnet, interfaces: [] }]
    : ownSubnets(networkInterfaces());
  if (subnets.length === 0) {
    err.write(
      "this machine has no IPv4 address on a LAN to scan around: name the dongles' subnet with --subnet, e.g. --subnet 192.168.1.0/24\n",
    );
    return 2;
  }
  const hosts = [...new Set(subnets.flatMap(({ subnet }) => hostsOf(subnet)))];
  const targets: Target[] = hosts.flatMap((host) => [
    ...options.ports.map((port) => ({ host, port, modbus: false })),
    ...options.modbusPorts.map((port) => ({ host, port, modbus: true })),
  ]);
  const modbusText = options.modbusPorts.length > 0 ? ` and ${options.modbusPorts.join(", ")} for Modbus TCP` : "";
  const longestS = Math.ceil((Math.ceil(targets.length / CONNECTS) * options.timeout) / 1000);
  err.write(
    `Scanning ${subnets.map(named).join(", ")}: ${hosts.length} address(es) on port ${options.ports.join(", ")} for dongles${modbusText}, ${options.timeout} ms a connection (connecting takes up to ${longestS} s)...\n`,
  );

  const open = (
    await mapBounded(targets, CONNECTS, async (target) =>
      (await acceptsConnection(target.host, target.port, options.timeout)) ? [target] : [],
    )
  ).flat();
  const answers = await mapBounded(
    open.filter((target) => !target.modbus),
    IDENTIFIES,
    (target) => identifyDongle(target.host, target.port, { connectMs: options.timeout, answerMs: ANSWER_MS }),
  );
  const result: ScanResult = {
    subnets: subnets.map(({ subnet }) => subnetText(subnet)),
    ports: options.ports,
    modbusPorts: options.modbusPorts,
    addresses: hosts.length,
    dongles: answers.flatMap((answer) => (answer.found ? [answer] : [])).sort(byAddress),
    silent: answers.flatMap((answer) => (answer.found ? [] : [answer])).sort(byAddress),
    modbus: open
      .filter((target) => target.modbus)
      .map(({ host, port }) => ({ host, port }))
      .sort(byAddress),
  };

  out.write(options.json ? `${scanJson(result)}\n` : scanText(result));
  if (result.dongles.length > 0) return 0;
  err.write(
    `no dongle answered on port ${options.ports.join(", ")} in ${result.subnets.join(", ")}: check that the dongle is powered and on this LAN (your router's list of devices gives its address), then name its subnet with --subnet, or its port with --ports\n`,
  );
  return 1;
}
