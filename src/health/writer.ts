import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { PRIVATE_DIR, PRIVATE_FILE } from "../files/file-modes.js";
import type { Logger } from "../log/log.js";
import { type Clock, every } from "../time/index.js";
import type { DeviceFreshness } from "./freshness.js";
import type { HealthStatus } from "./status.js";

export interface HealthWriterOptions {
  /** Where to write; undefined writes nothing (an in-memory store and no ENERGY2MQTT_HEALTH_FILE). */
  readonly file: string | undefined;
  readonly logger: Logger;
  /** 30 s by default; `energy2mqtt health` allows 90 s, so two missed writes are tolerated. */
  readonly intervalMs?: number;
  /** The system clock by default. */
  readonly clock: Clock;
}

export interface HealthWriter {
  /** Reports a finished cloud request; a 2xx status counts as a success. */
  cloudRequest(status: number | undefined): void;
  /** Where the MQTT connection state comes from, once the bridge exists. */
  watchMqtt(connected: () => boolean): void;
  /** Where each device's freshness comes from, once the devices are known. */
  watchDevices(devices: (now: number) => readonly DeviceFreshness[]): void;
  /** Where the cloud's refusal (401/403) comes from, while it refuses the daemon. */
  watchRefusal(refusal: () => string | undefined): void;
  /** Writes the file now (also done on every tick). */
  write(): void;
  /** Stops writing and removes the file, so a stopped daemon does not look healthy. */
  stop(): void;
}

export const HEALTH_INTERVAL_MS = 30_000;

/** Writes the daemon's heartbeat now and then every interval, replacing the file atomically. */
export function startHealthWriter(options: HealthWriterOptions): HealthWriter {
  const { file, logger } = options;
  const clock = options.clock;
  const now = (): number => clock.now();
  let mqttConnected: () => boolean = () => false;
  let devices: (now: number) => readonly DeviceFreshness[] = () => [];
  let refusal: () => string | undefined = () => undefined;
  let connected = false;
  let since = now();
  let lastSuccess: number | undefined;
  let warned = false;

  const write = (): void => {
    if (file === undefined) return;
    const at = now();
    const current = mqttConnected();
    if (current !== connected) {
      connected = current;
      since = at;
    }
    const status: HealthStatus = {
      at: new Date(at).toISOString(),
      pid: process.pid,
      mqtt: { connected, since: new Date(since).toISOString() },
      cloud: {
        last_success: lastSuccess === undefined ? null : new Date(lastSuccess).toISOString(),
        refused: refusal() ?? null,
      },
      devices: devices(at).map(({ device, name, age_seconds, poll_seconds, stale }) => ({
        device,
        name,
        age_seconds,
        poll_seconds,
        stale,
      })),
    };
    // A reader must never see half a file: write beside it, then rename over it.
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR });
      writeFileSync(temporary, `${JSON.stringify(status)}\n`, { mode: PRIVATE_FILE });
      renameSync(temporary, file);
    } catch (error) {
      // A full or read-only disk: leave nothing half-written behind.
      removeQuietly(temporary);
      if (!warned) logger.warn({ file, err: (error as Error).message }, "could not write the health file");
      warned = true;
    }
  };

  write();
  const stopTimer = every(clock, options.intervalMs ?? HEALTH_INTERVAL_MS, write, { background: true });
  return {
    cloudRequest(status) {
      if (status !== undefined && status >= 200 && status < 300) lastSuccess = now();
    },
    watchMqtt(connected) {
      mqttConnected = connected;
      write();
    },
    watchDevices(read) {
      devices = read;
      write();
    },
    watchRefusal(read) {
      refusal = read;
    },
    write,
    stop() {
      stopTimer();
      if (file !== undefined) rmSync(file, { force: true });
    },
  };
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // the write's own failure is the one reported
  }
}
