import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RPCClient } from "ocpp-rpc";
import { pino } from "pino";
import {
  type CentralSystem,
  type CentralSystemOptions,
  type OcppEvent,
  startCentralSystem,
} from "../../src/ocpp/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { VirtualClock } from "../../src/time/index.js";

/** 2026-06-21T12:00:00Z: a fixed instant, so that no assertion depends on when the test runs. */
export const START = Date.parse("2026-06-21T12:00:00Z");

export const CHARGE_POINTS = [
  { id: "CP1", password: "cp1-password" },
  { id: "CP2", password: "cp2-password" },
] as const;

export interface Harness {
  readonly central: CentralSystem;
  readonly store: Store;
  readonly clock: VirtualClock;
  readonly events: OcppEvent[];
  /** The log's lines, parsed. */
  readonly log: () => { level: number; msg: string; [key: string]: unknown }[];
  /** The raw log text, to check that no password is in it. */
  readonly logText: () => string;
  readonly dbPath: string;
  /** Starts another central system on the same database file (a restart). */
  restart(): Promise<Harness>;
  stop(): Promise<void>;
}

export async function startHarness(
  overrides: Partial<Omit<CentralSystemOptions, "sessions" | "clock" | "logger">> = {},
  dir = mkdtempSync(join(tmpdir(), "e2m-ocpp-")),
  clock = new VirtualClock(START),
): Promise<Harness> {
  const dbPath = join(dir, "energy2mqtt.db");
  const store = openStore(dbPath);
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(line) });
  const central = await startCentralSystem({
    host: "127.0.0.1",
    port: 0,
    chargePoints: CHARGE_POINTS,
    authorisation: { policy: "id_tags", idTags: ["TAG-OK"] },
    heartbeatSeconds: 30,
    ...overrides,
    sessions: store.ocppSessions,
    clock,
    logger,
  });
  const events: OcppEvent[] = [];
  central.events$.subscribe((event) => events.push(event));
  const stopOnly = async (): Promise<void> => {
    await central.close();
    store.close();
  };
  return {
    central,
    store,
    clock,
    events,
    dbPath,
    log: () =>
      lines
        .join("")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as { level: number; msg: string }),
    logText: () => lines.join(""),
    restart: async () => {
      await stopOnly();
      return startHarness(overrides, dir, clock);
    },
    stop: async () => {
      await stopOnly();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** ocpp-rpc's own client as a charge point, strict on the OCPP 1.6 schemas as a real one should be. */
export function chargePoint(port: number, identity: string, password: string, tls?: { ca?: string }): RPCClient {
  const options: Partial<ConstructorParameters<typeof RPCClient>[0]> = {
    endpoint: `${tls ? "wss" : "ws"}://127.0.0.1:${port}`,
    ...(tls?.ca === undefined ? {} : { wsOpts: { ca: tls.ca } }),
    identity,
    password,
    protocols: ["ocpp1.6"],
    strictMode: true,
    reconnect: false,
  };
  return new RPCClient(options as ConstructorParameters<typeof RPCClient>[0]);
}

/** Resolves once `check` holds for the events seen so far (polled on real time: sockets deliver them). */
export async function until<T>(check: () => T | undefined | false, timeoutMs = 2000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found) return found;
    if (performance.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
