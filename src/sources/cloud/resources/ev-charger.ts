import { Subject } from "rxjs";
import type { Measurand } from "../../../cloud/index.js";
import { isoSeconds, newest, timestampMs } from "../../../time/index.js";
import { deviceId, type EvChargerDevice } from "../../inventory.js";
import type { Resource } from "../../resource.js";
import { live, type ResourceContext } from "../context.js";
import {
  chargerMeterSamplesOf,
  chargerMeterValues,
  chargerSessionOf,
  chargerSessionRecordsOf,
  chargerStatusValues,
} from "../ev-readings.js";

/** Energy.Active.Import.Register, Power.Active.Import, Current.Import, Voltage, SoC, Temperature. */
export const METER_MEASURANDS: readonly Measurand[] = [4, 13, 1, 21, 19, 20];
/** Records come every 5 minutes: 15 minutes always hold the newest. */
const METER_WINDOW_MS = 15 * 60_000;
/** Sessions overlapping the last week: the current one, or the last one if none is open. */
const SESSION_WINDOW_MS = 7 * 86_400_000;

const LOST = /^(lost|offline)$/i;

/**
 * An EV charger: its status every `statusMs`; its meter every `meterMs` and at once when the
 * status changes; its sessions only at start and when the status changes, since a session
 * opens and closes only with a status change.
 */
export function evChargerResources(
  context: ResourceContext,
  charger: EvChargerDevice,
  poll: { readonly statusMs: number; readonly meterMs: number },
): Resource[] {
  const { client, now } = context;
  const { uuid } = charger;
  const id = deviceId(charger);
  const statusChanged = new Subject<void>();
  let lastStatus: string | undefined;

  return [
    {
      name: `ev.status ${charger.serial}`,
      of: { kind: "ev.status", serial: charger.serial },
      devices: [id],
      periodMs: poll.statusMs,
      async poll(signal) {
        const data = await client.evChargers.get(uuid, live(signal));
        const status = `${data.online}|${data.status}`;
        if (lastStatus !== undefined && status !== lastStatus) statusChanged.next();
        lastStatus = status;
        const offline = data.online === false || (data.status ? LOST.test(data.status) : false);
        return {
          fetched: { kind: "ev.status", uuid, at: now(), values: chargerStatusValues(data) },
          ...(offline ? { down: { [id]: `EV charger ${charger.serial} is offline` } } : {}),
        };
      },
    },
    {
      name: `ev.meter ${charger.serial}`,
      of: { kind: "ev.meter", serial: charger.serial },
      devices: [id],
      periodMs: poll.meterMs,
      triggers: statusChanged,
      async poll(signal) {
        const at = now();
        const records = await client.evChargers
          .meterData(
            uuid,
            {
              start_time: isoSeconds(at - METER_WINDOW_MS),
              end_time: isoSeconds(at + 60_000),
              measurands: METER_MEASURANDS,
              meter_ids: [0],
            },
            live(signal),
          )
          .all();
        const latest = newest(records, (record) => record.timestamp, context.timezone);
        const values = latest && chargerMeterValues(latest);
        const measuredAt = latest && timestampMs(latest.timestamp, context.timezone);
        return {
          fetched: {
            kind: "ev.meter",
            uuid,
            at,
            records: chargerMeterSamplesOf(records, context.timezone),
            values,
            measuredAt: measuredAt !== undefined && Number.isFinite(measuredAt) ? measuredAt : undefined,
          },
        };
      },
    },
    {
      name: `ev.session ${charger.serial}`,
      of: { kind: "ev.session", serial: charger.serial },
      devices: [id],
      triggers: statusChanged,
      async poll(signal) {
        const at = now();
        const sessions = await client.evChargers
          .chargingSessions(uuid, { start_time: isoSeconds(at - SESSION_WINDOW_MS) }, live(signal))
          .all();
        const latest = newest(sessions, (s) => s.started_at, context.timezone);
        return {
          fetched: {
            kind: "ev.sessions",
            uuid,
            at,
            sessions: chargerSessionRecordsOf(sessions, context.timezone),
            session: latest && chargerSessionOf(latest),
          },
        };
      },
    },
  ];
}
