import type { Intent } from "../engine/intents.js";
import { chargerWords, presetWords, valueWords } from "./action-words.js";

/**
 * A resolved intent in words with the device it acts on, for the page's "run now" preview; the
 * same phrasing as the Plan page's actions (action-words.ts). The engine's own text
 * (describeAction) stays the log's.
 */
export function intentWords(intent: Intent): { words: string; device: string | null } {
  switch (intent.kind) {
    case "invalid":
      return { words: `${intent.text} cannot be sent: ${intent.problem}`, device: null };
    case "notify":
      return {
        words: `Notify “${intent.notification.title}” (${intent.notification.platforms.join(", ")})`,
        device: null,
      };
    case "snapshot":
      return {
        words: `${intent.op === "take" ? "Take" : "Restore"} the settings snapshot “${intent.name}” on inverter ${intent.serial}`,
        device: intent.serial,
      };
    case "change": {
      const request = intent.request;
      switch (request.kind) {
        case "preset":
          return {
            words: `${presetWords(request.preset, request.fields)} on inverter ${request.serial}`,
            device: request.serial,
          };
        case "setting":
          return {
            words: `Set setting ${request.settingId} to ${valueWords(request.value)} on inverter ${request.serial}`,
            device: request.serial,
          };
        case "ev-command":
          return {
            words: `Charger: ${chargerWords(request.command, request.request)} (charger ${request.uuid})`,
            device: request.uuid,
          };
      }
    }
  }
}
