/**
 * Retained discovery configs that a previous run of this bridge left and that no longer apply
 * (a device removed while the daemon was down, an entity the catalogue dropped). A config is
 * ours when its unique_id is ours and its state or availability topic is under our base topic,
 * so a second daemon on another base topic keeps its own.
 */
export function staleConfigs(
  retained: ReadonlyMap<string, string>,
  options: {
    readonly baseTopic: string;
    /** Topics published now, or owned by another part of the bridge (the rules device). */
    readonly keep: (topic: string) => boolean;
  },
): string[] {
  const stale: string[] = [];
  for (const [topic, payload] of retained) {
    if (payload === "" || options.keep(topic)) continue;
    if (isOurs(payload, options.baseTopic)) stale.push(topic);
  }
  return stale.sort();
}

function isOurs(payload: string, baseTopic: string): boolean {
  let config: unknown;
  try {
    config = JSON.parse(payload);
  } catch {
    return false;
  }
  if (typeof config !== "object" || config === null) return false;
  const { unique_id: uniqueId, state_topic: stateTopic, availability } = config as Record<string, unknown>;
  if (typeof uniqueId !== "string" || !uniqueId.startsWith("energy2mqtt_")) return false;
  const under = (topic: unknown): boolean => typeof topic === "string" && topic.startsWith(`${baseTopic}/`);
  if (under(stateTopic)) return true;
  return Array.isArray(availability) && availability.some((entry) => under((entry as { topic?: unknown })?.topic));
}
