import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { expect } from "vitest";
import type { RequestEvent } from "../../../src/cloud/http.js";
import {
  type ChangeOutcome,
  type ChangeRequest,
  ControlGate,
  type ControlGateDeps,
  type Requester,
} from "../../../src/control/index.js";
import type { EvChargerDevice, InverterDevice } from "../../../src/sources/index.js";
import { cloudControl } from "../../../src/sources/index.js";
import { openStore } from "../../../src/store/index.js";
import { systemClock } from "../../../src/time/clock.js";
import { startTestSimulator } from "../../helpers/simulator.js";
import { chargerDevice, inverterDevice } from "./devices.js";

export const START = Date.UTC(2025, 5, 15, 11, 0, 0);
export const INVERTER = "SD2024G001";
export const EMS_CHILD = "SE2024G101";
export const CHARGER = "6b1f0c8e-2f51-4c1b-9d3a-5e7c2a9b0d11";

export interface Applied {
  readonly outcome: ChangeOutcome;
  /** Endpoint names of the requests the change made, in the order they ended. */
  readonly requests: string[];
}

export interface GateOptions {
  /** The client's timeout: how long the gate waits for a write's answer before reading back. */
  readonly timeoutMs?: number;
  readonly settleMs?: number;
  readonly lateAnswerMs?: number;
  readonly onApplied?: ControlGateDeps["onApplied"];
}

/**
 * The simulator over HTTP, a gate whose client reports every request, an audit log in a real
 * SQLite file, and a second client for looking at the simulator without being counted.
 */
export async function startGate(options: GateOptions = {}) {
  const sim = await startTestSimulator({ speed: 0, start: START });
  const events: { readonly event: RequestEvent; readonly endedAt: number }[] = [];
  const client = sim.clientFor("owner", {
    onRequest: (event) => events.push({ event, endedAt: performance.now() }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const checker = sim.clientFor("owner");
  const dir = mkdtempSync(join(tmpdir(), "e2m-control-"));
  const store = openStore(join(dir, "energy2mqtt.db"));
  const inverters = new Map<string, InverterDevice>([
    [INVERTER, await inverterDevice(checker, INVERTER)],
    [
      EMS_CHILD,
      await inverterDevice(checker, INVERTER, {
        serial: EMS_CHILD,
        controllable: false,
        flags: [],
        emsSerial: "EM2024E001",
      }),
    ],
  ]);
  const chargers = new Map<string, EvChargerDevice>([[CHARGER, await chargerDevice(checker, CHARGER)]]);
  const logs: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => logs.push(line) });
  const gate = new ControlGate({
    clock: systemClock,
    control: cloudControl(client),
    audit: store.audit,
    devices: { inverter: (serial) => inverters.get(serial), charger: (uuid) => chargers.get(uuid) },
    logger,
    ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    ...(options.lateAnswerMs === undefined ? {} : { lateAnswerMs: options.lateAnswerMs }),
    ...(options.onApplied === undefined ? {} : { onApplied: options.onApplied }),
  });

  const auditCount = (): number => store.audit.recent({ limit: 10_000 }).length;

  /** Applies a change and checks that it wrote exactly one audit row that matches its outcome. */
  async function apply(request: ChangeRequest, requester: Requester = { via: "cli", name: "test" }): Promise<Applied> {
    const mark = events.length;
    const before = auditCount();
    const outcome = await gate.apply(request, requester);
    expect(auditCount()).toBe(before + 1);
    const [row] = store.audit.recent({ limit: 1 });
    expect(row).toMatchObject({
      source: requester.via,
      ok: outcome.ok,
      verified: outcome.verified,
      skipped: outcome.skipped,
      message: outcome.message,
      code: outcome.code,
    });
    return { outcome, requests: events.slice(mark).map((entry) => entry.event.endpoint) };
  }

  return {
    sim,
    gate,
    store,
    client,
    checker,
    events,
    logs,
    inverters,
    apply,
    auditCount,
    stop: async () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
      await sim.stop();
    },
  };
}

export type GateSetup = Awaited<ReturnType<typeof startGate>>;
