import { describe, expect, it } from "vitest";
import { EV_COMMANDS } from "../../src/cloud/schemas/ev-commands.js";
import { describeIssues } from "../../src/control/zod-problems.js";

function problems(schema: (typeof EV_COMMANDS)[keyof typeof EV_COMMANDS]["request"], input: unknown): string {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("expected a refusal");
  return describeIssues(parsed.error, schema);
}

describe("describeIssues", () => {
  it("names the allowed range, values or type of each field", () => {
    expect(problems(EV_COMMANDS["adjust-charge-power-limit"].request, { limit: 5 })).toBe(
      "limit must be a number between 6 and 32",
    );
    expect(problems(EV_COMMANDS["configuration-mode"].request, { configuration_mode: "Z" })).toBe(
      "configuration_mode must be one of A, B, C, D, E",
    );
    expect(problems(EV_COMMANDS["set-plug-and-go"].request, {})).toBe("enabled must be true or false");
    expect(problems(EV_COMMANDS["adjust-suspended-state-wait-timeout"].request, { value: 1.5 })).toBe(
      "value must be a whole number between 0 and 43200",
    );
  });

  it("names unknown fields and the fields there are", () => {
    expect(problems(EV_COMMANDS["set-session-energy-limit"].request, { limt: 5 })).toBe(
      "limt is not a field (its fields: limit)",
    );
    expect(problems(EV_COMMANDS["start-charge"].request, { now: true })).toBe(
      "now is not a field (it takes no fields)",
    );
  });

  it("falls back to the schema's own message for nested fields", () => {
    const message = problems(EV_COMMANDS["set-schedule"].request, {
      name: "x",
      periods: [{ start_time: "25:00", end_time: "01:00", limit: 16, days: [0] }],
    });
    expect(message).toBe("periods.0.start_time: expected a time as HH:mm (H:i), e.g. 05:30");
  });
});
