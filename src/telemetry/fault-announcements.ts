import type { EventBus } from "../bus/event-bus.js";
import type { Feature } from "../bus/feature.js";
import type { Logger } from "../log/log.js";

/**
 * Says on the log, at warn so that `<base>/bridge/logging` carries it, when an inverter's fault
 * appears and when it clears: once each, whichever path read it, not at every poll. The portal's
 * notifications did this; with no portal, nothing else tells the owner. A fault already active at
 * the first reading after a start is said once then.
 */
export function faultAnnouncements(options: { readonly bus: EventBus; readonly logger: Logger }): Feature {
  const { bus, logger } = options;
  const name = "fault-announcements";
  const known = new Map<string, ReadonlySet<string>>();
  return {
    name,
    start() {
      bus.on("fetched", name, (fetched) => {
        if (fetched.kind !== "inverter.events") return;
        const serial = fetched.serial.toUpperCase();
        const before = known.get(serial) ?? new Set<string>();
        const now = new Set(fetched.active.map((fault) => fault.name));
        known.set(serial, now);
        for (const fault of now)
          if (!before.has(fault)) logger.warn(`inverter ${fetched.serial}: fault "${fault}" appeared`);
        for (const fault of before)
          if (!now.has(fault)) logger.warn(`inverter ${fetched.serial}: fault "${fault}" cleared`);
      });
    },
    stop() {
      bus.removeAll(name);
    },
  };
}
