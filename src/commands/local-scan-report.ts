import type { FoundDongle, SilentPort } from "./local-scan-identify.js";
import { ipNumber } from "./local-scan-subnets.js";

/** What a scan found, in address order. */
export interface ScanResult {
  readonly subnets: readonly string[];
  readonly ports: readonly number[];
  readonly modbusPorts: readonly number[];
  /** How many addresses were tried. */
  readonly addresses: number;
  readonly dongles: readonly FoundDongle[];
  readonly silent: readonly SilentPort[];
  readonly modbus: readonly Endpoint[];
}

export interface Endpoint {
  readonly host: string;
  readonly port: number;
}

const DOCS = `the README's "Finding the dongles"`;

/** Address order, then port order. */
export function byAddress(a: Endpoint, b: Endpoint): number {
  return (ipNumber(a.host) ?? 0) - (ipNumber(b.host) ?? 0) || a.port - b.port;
}

const where = (endpoint: Endpoint): string => `${endpoint.host}:${endpoint.port}`;

function identity(dongle: FoundDongle): string {
  return `${dongle.model} ${dongle.serial}${dongle.dongleSerial ? ` (dongle ${dongle.dongleSerial})` : ""}`;
}

const modbusNote = (endpoint: Endpoint): string =>
  `${where(endpoint)} answers Modbus TCP: an EV charger with local control? Not a dongle: see ${DOCS}`;

/** One line per port that answered, in address order. */
function findings(result: ScanResult): string[] {
  const lines: (Endpoint & { text: string })[] = [
    ...result.dongles.map((dongle) => ({
      ...dongle,
      text: `${identity(dongle)}${dongle.detectedFrom === "banks" ? ", the model told by its live registers (its identity did not answer)" : ""}`,
    })),
    ...result.silent.map((port) => ({
      ...port,
      text: `open, but no dongle answered${port.dongleSerial ? ` (dongle ${port.dongleSerial})` : ""}: ${port.reason}`,
    })),
    ...result.modbus.map((endpoint) => ({
      ...endpoint,
      text: `answers Modbus TCP: an EV charger with local control? Not a dongle: see ${DOCS}`,
    })),
  ];
  return lines.sort(byAddress).map((line) => `${where(line).padEnd(21)}  ${line.text}`);
}

/** The `local:` list to paste: a dongle a line with what it is, and the Modbus TCP servers as comments. */
export function localBlock(result: ScanResult): string[] {
  return [
    "local:",
    ...result.dongles.flatMap((dongle) => [
      `  - host: ${dongle.host.padEnd(15)}   # ${identity(dongle)}`,
      `    port: ${dongle.port}`,
    ]),
    ...result.modbus.map((endpoint) => `  # ${modbusNote(endpoint)}`),
  ];
}

/** The human report: what answered where, then the `local:` lines to paste when a dongle answered. */
export function scanText(result: ScanResult): string {
  const lines = findings(result);
  if (result.dongles.length > 0) {
    lines.push(
      "",
      `${result.dongles.length} dongle(s) found. Paste these lines into your configuration file (in place of any local: it has), then run \`energy2mqtt check\`:`,
      "",
      ...localBlock(result),
    );
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

/** The `--json` document. */
export function scanJson(result: ScanResult): string {
  return JSON.stringify({
    subnets: result.subnets,
    ports: result.ports,
    modbus_ports: result.modbusPorts,
    addresses: result.addresses,
    dongles: result.dongles.map((dongle) => ({
      host: dongle.host,
      port: dongle.port,
      dongle_serial: dongle.dongleSerial,
      kind: dongle.kind,
      model: dongle.model,
      serial: dongle.serial,
      detected_from: dongle.detectedFrom,
    })),
    silent: result.silent.map((port) => ({
      host: port.host,
      port: port.port,
      dongle_serial: port.dongleSerial,
      reason: port.reason,
    })),
    modbus: result.modbus.map(({ host, port }) => ({ host, port })),
    local: result.dongles.map(({ host, port }) => ({ host, port })),
  });
}
