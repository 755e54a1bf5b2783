import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { duration } from "../../src/config/index.js";
import {
  configReference,
  REFERENCE_END,
  REFERENCE_START,
  referenceRows,
  withConfigReference,
} from "../../src/config/reference.js";

describe("the configuration reference", () => {
  it("is up to date in README.md (run npm run docs:config after changing the schema)", () => {
    const readme = readFileSync("README.md", "utf8");
    expect(withConfigReference(readme)).toBe(readme);
  });

  it("lists every key of the schema with its type, default, bounds and environment variable", () => {
    const rows = new Map(referenceRows().map((row) => [row.key, row]));
    expect(rows.get("cloud.requests_per_minute")).toMatchObject({
      type: "integer",
      default: "`300`",
      allowed: "1 to 10000",
      env: "ENERGY2MQTT_CLOUD_REQUESTS_PER_MINUTE",
    });
    expect(rows.get("poll.ev_charger")).toMatchObject({ type: "duration", default: "`30s`" });
    expect(rows.get("log.level")?.allowed).toContain("`debug`");
    expect(rows.get("cloud.url")).toMatchObject({ default: "(not set)", env: "ENERGY2MQTT_CLOUD_URL" });
    expect(rows.get("rules")).toMatchObject({ env: "ENERGY2MQTT_RULES" });
    expect(rows.get("mqtt.base_topic")?.description).not.toBe("");
  });

  it("handles any schema: nested objects, lists, and keys no environment variable reaches", () => {
    const schema = z.strictObject({
      archive: z
        .strictObject({
          every: duration.default(90_000).describe("how often"),
          window: z.strictObject({ days: z.number().int().min(1).default(7) }).default({ days: 7 }),
          kinds: z.array(z.string()).default(["a"]),
          mode: z.enum(["x", "y|z"]).optional(),
        })
        .default({ every: 90_000, window: { days: 7 }, kinds: ["a"] }),
    });
    const table = configReference(schema);
    expect(table.split("\n").slice(2)).toEqual([
      "| `archive.every` | duration | `90s` | a number with ms, s, m or h, e.g. 30s, 5m, 1h | `ENERGY2MQTT_ARCHIVE_EVERY` | how often |",
      "| `archive.window.days` | integer | `7` | at least 1 | — |  |",
      '| `archive.kinds` | array | `["a"]` |  | — |  |',
      "| `archive.mode` | enum | (not set) | `x`, `y\\|z` | `ENERGY2MQTT_ARCHIVE_MODE` |  |",
    ]);
  });

  it("replaces only what is between the markers, and refuses a README without them", () => {
    const readme = `intro\n${REFERENCE_START}\nold\n${REFERENCE_END}\noutro\n`;
    expect(withConfigReference(readme, "new")).toBe(`intro\n${REFERENCE_START}\nnew\n${REFERENCE_END}\noutro\n`);
    expect(() => withConfigReference("no markers", "new")).toThrow(/needs <!-- config-reference:start -->/);
  });
});
