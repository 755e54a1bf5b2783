import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { NetConnectOpts } from "node:net";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { main } from "../../src/cli/main.js";
import { runCheckCommand } from "../../src/commands/check.js";
import { runLocalScanCommand } from "../../src/commands/local-scan.js";
import { localDongleConfig } from "../../src/config/schema.js";
import { freePort } from "../helpers/broker.js";
import { capture } from "../helpers/capture.js";
import { MIDDAY, startTestSimulator } from "../helpers/simulator.js";

/** Every host the code under test connected to: the scan must stay inside the subnet it is given. */
const connected = vi.hoisted((): string[] => []);
vi.mock("node:net", async (importOriginal) => {
  const net = await importOriginal<typeof import("node:net")>();
  return {
    ...net,
    createConnection: (options: NetConnectOpts) => {
      connected.push("host" in options ? String(options.host) : "a socket path");
      return net.createConnection(options);
    },
  };
});

/**
 * `local scan` on a small loopback subnet: the demo house's dongles each on an address of their
 * own in 127.83.0.0/29, all on one port; a Modbus TCP server beside them; nothing on 127.83.0.1.
 * Only 127.0.0.0/8 is ever contacted.
 */
describe("energy2mqtt local scan", () => {
  const SUBNET = "127.83.0.0/29";
  const HOSTS = ["127.83.0.2", "127.83.0.3", "127.83.0.4", "127.83.0.5"];
  const MODBUS_HOST = "127.83.0.6";
  const dir = mkdtempSync(join(tmpdir(), "e2m-local-scan-"));
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  let modbus: Server;
  let port: number;
  let modbusPort: number;

  beforeAll(async () => {
    port = await freePort();
    modbusPort = await freePort();
    sim = await startTestSimulator({
      speed: 0,
      start: MIDDAY,
      localPort: port,
      localHosts: HOSTS,
      localResponseDelayMs: 0,
    });
    modbus = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => modbus.listen(modbusPort, MODBUS_HOST, resolve));
    for (const key of ["CONFIG", "CLOUD_URL", "CLOUD_TOKEN", "MQTT_URL", "SOURCE"])
      vi.stubEnv(`ENERGY2MQTT_${key}`, "");
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await sim?.stop();
    await new Promise((resolve) => modbus?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    connected.length = 0;
  });

  const scan = async (...args: string[]) => {
    const options: Record<string, string | boolean> = {};
    for (let index = 0; index < args.length; index += 2) options[args[index] ?? ""] = args[index + 1] ?? true;
    const out = capture();
    const err = capture();
    const code = await runLocalScanCommand(options, out.stream, err.stream);
    return { code, out: out.text(), err: err.text() };
  };
  /** An address and port as the report's first column prints them. */
  const column = (host: string, at: number): string => `${host}:${at}`.padEnd(21);
  const scanHouse = (json = false) =>
    scan("subnet", SUBNET, "ports", String(port), "modbusPorts", String(modbusPort), ...(json ? ["json"] : []));

  it("finds each dongle with its model and serial, and prints local: lines that check accepts", async () => {
    expect(sim.simulator.dongles.map((dongle) => dongle.host)).toEqual(HOSTS);
    const { code, out, err } = await scanHouse();
    expect(err).toContain(
      `Scanning ${SUBNET}: 6 address(es) on port ${port} for dongles and ${modbusPort} for Modbus TCP`,
    );
    for (const dongle of sim.simulator.dongles) {
      expect(out).toContain(
        `${column(dongle.host, port)}  ${dongle.model} ${dongle.deviceSerial} (dongle ${dongle.dongleSerial})`,
      );
    }
    expect(out).toContain(`${column(MODBUS_HOST, modbusPort)}  answers Modbus TCP: an EV charger`);
    expect(out).not.toContain("127.83.0.1:");
    expect(code).toBe(0);

    const block = out.slice(out.indexOf("\nlocal:\n") + 1);
    expect(block).toContain(`  # ${MODBUS_HOST}:${modbusPort} answers Modbus TCP`);
    const local = (parse(block) as { local: unknown[] }).local.map((entry) => localDongleConfig.parse(entry));
    expect(local).toEqual(HOSTS.map((host) => ({ host, port, passive: false, gap_ms: 250 })));

    const config = join(dir, "scanned.yaml");
    writeFileSync(config, `source: local\n${block}`);
    const checkOut = capture();
    const checkErr = capture();
    expect(await runCheckCommand({ config }, checkOut.stream, checkErr.stream)).toBe(0);
    sim.simulator.dongles.forEach((dongle, index) => {
      expect(checkOut.text()).toContain(
        `local[${index}]: ${dongle.host}:${port}: reachable; ${dongle.model}, serial ${dongle.deviceSerial}, dongle ${dongle.dongleSerial},`,
      );
    });
    expect(checkErr.text()).not.toContain("not reachable");
    expect(connected.length).toBeGreaterThan(0);
    expect(connected.filter((host) => !host.startsWith("127."))).toEqual([]);
  }, 60_000);

  it("--json prints one document: the dongles, the Modbus TCP servers and the local: entries", async () => {
    const { code, out } = await scanHouse(true);
    expect(code).toBe(0);
    const printed = JSON.parse(out) as Record<string, unknown>;
    expect(printed).toMatchObject({
      subnets: [SUBNET],
      ports: [port],
      modbus_ports: [modbusPort],
      addresses: 6,
      silent: [],
      modbus: [{ host: MODBUS_HOST, port: modbusPort }],
      local: HOSTS.map((host) => ({ host, port })),
    });
    expect(printed.dongles).toEqual(
      sim.simulator.dongles.map((dongle) => ({
        host: dongle.host,
        port,
        dongle_serial: dongle.dongleSerial,
        kind: dongle.kind,
        model: dongle.model,
        serial: dongle.deviceSerial,
        detected_from: "identity",
      })),
    );
  }, 60_000);

  it("exits 1 with a hint when no dongle answers, listing no closed port", async () => {
    const { code, out, err } = await scan("subnet", "127.83.0.8/30", "ports", String(port), "modbusPorts", "none");
    expect(out).toBe("");
    expect(err).toContain(`no dongle answered on port ${port} in 127.83.0.8/30: check that the dongle is powered`);
    expect(code).toBe(1);
    expect(connected).toEqual(["127.83.0.9", "127.83.0.10"]);
  });

  it("runs from the command line with its options", async () => {
    let err = "";
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
    try {
      const argv = ["local", "scan", "--subnet", "127.83.0.8/30", "--ports", String(port), "--modbus-ports", "none"];
      expect(await main([...argv, "--timeout", "200"])).toBe(1);
    } finally {
      vi.restoreAllMocks();
    }
    expect(err).toContain(`Scanning 127.83.0.8/30: 2 address(es) on port ${port} for dongles, 200 ms a connection`);
    expect(connected).toEqual(["127.83.0.9", "127.83.0.10"]);
  });

  it.each([
    ["10.0.0.0/8", "--subnet: 10.0.0.0/8 holds 16,777,216 addresses, too many to scan: give a /16 or narrower"],
    ["abc", '--subnet: "abc" is not an IPv4 subnet: give one as ADDRESS/PREFIX, e.g. 192.168.1.0/24'],
  ])("refuses --subnet %s with exit 2, saying what to fix, and contacts nothing", async (subnet, message) => {
    const { code, out, err } = await scan("subnet", subnet);
    expect(err).toContain(message);
    expect(err).not.toContain("Scanning");
    expect(out).toBe("");
    expect(code).toBe(2);
    expect(connected).toEqual([]);
  });

  it("refuses bad ports and timeouts with exit 2", async () => {
    expect((await scan("subnet", SUBNET, "ports", "8899,x")).err).toContain(
      '--ports: "8899,x" is not a list of ports: give TCP ports from 1 to 65535',
    );
    expect((await scan("subnet", SUBNET, "timeout", "5")).err).toContain(
      "--timeout: give the connect timeout in ms, 50 to 10000",
    );
    const both = await scan("subnet", SUBNET, "ports", "502");
    expect(both.err).toContain("--modbus-ports: port 502 is in --ports too");
    expect(both.code).toBe(2);
    expect(connected).toEqual([]);
  });
});
