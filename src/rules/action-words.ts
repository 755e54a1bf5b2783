import type { Intent } from "./engine/intents.js";

/*
 * A rule's action as people read it ("timed export on inverter SA123: on, 17:00–19:00 to 20%"),
 * for the page's "run now" preview. The engine's own text (describeAction) stays the log's.
 */

const spaced = (id: string): string => id.replaceAll(/[-_]/g, " ");

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A slot or period: "17:00–19:00 to 20%", else its fields in words. */
function spanWords(value: unknown): string {
  if (!isRecord(value)) return JSON.stringify(value);
  const start = value.start_time;
  const end = value.end_time;
  if (typeof start !== "string" || typeof end !== "string") return fieldsWords(value);
  const limit = value.percent_limit ?? value.limit;
  const unit = value.percent_limit !== undefined ? "%" : value.limit !== undefined ? " A" : "";
  return `${start}–${end}${limit === undefined ? "" : ` to ${String(limit)}${unit}`}`;
}

function valueWords(key: string, value: unknown): string {
  if (key === "enabled" && typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) return value.length === 0 ? `no ${spaced(key)}` : value.map(spanWords).join(", ");
  if (isRecord(value)) return `${spaced(key)} ${fieldsWords(value)}`;
  return `${spaced(key)} ${String(value)}`;
}

export function fieldsWords(fields: Readonly<Record<string, unknown>>): string {
  return Object.entries(fields)
    .map(([key, value]) => valueWords(key, value))
    .join(", ");
}

/** The intent in words, and the device it acts on. */
export function intentWords(intent: Intent): { words: string; device: string | null } {
  switch (intent.kind) {
    case "invalid":
      return { words: `${intent.text} cannot be sent: ${intent.problem}`, device: null };
    case "notify":
      return {
        words: `notify "${intent.notification.title}" (${intent.notification.platforms.join(", ")})`,
        device: null,
      };
    case "snapshot":
      return {
        words: `${intent.op === "take" ? "take" : "restore"} snapshot "${intent.name}" on inverter ${intent.serial}`,
        device: intent.serial,
      };
    case "change": {
      const request = intent.request;
      switch (request.kind) {
        case "preset": {
          const fields = fieldsWords(request.fields);
          return {
            words: `${spaced(request.preset)} on inverter ${request.serial}${fields ? `: ${fields}` : ""}`,
            device: request.serial,
          };
        }
        case "setting":
          return {
            words: `setting ${request.settingId} on inverter ${request.serial} set to ${String(request.value)}`,
            device: request.serial,
          };
        case "ev-command": {
          const fields = fieldsWords(request.request);
          return {
            words: `${spaced(request.command)} on charger ${request.uuid}${fields ? `: ${fields}` : ""}`,
            device: request.uuid,
          };
        }
      }
    }
  }
}
