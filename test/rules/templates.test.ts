import { describe, expect, it } from "vitest";
import { renderTemplates, TEMPLATE_NAMES, templateContext } from "../../src/rules/file/templates.js";
import { utc } from "./helpers.js";

describe("the template context (one builder for the engine and rules plan)", () => {
  const base = {
    rule: "overnight",
    window: { start: utc("2026-07-01T00:30"), end: utc("2026-07-01T04:00") },
    now: utc("2026-06-30T23:00"),
    timeZone: "Europe/London",
    prices: { import: 0.12, currency: "GBP" },
    state: { batterySoc: 40 },
  };

  it("gives every template name a value, in local time; what is not known is null", () => {
    const context = templateContext({ ...base, plan: { "plan.target_soc": 90 } });
    expect(Object.keys(context).sort()).toEqual([...TEMPLATE_NAMES].sort());
    expect(context).toMatchObject({
      "window.start": "01:30",
      "window.end": "05:00",
      "window.hours": 3.5,
      "prices.current": 0.12,
      "prices.export": null,
      "state.battery_soc": 40,
      "state.pv_power": null,
      "plan.target_soc": 90,
      "plan.cost": null,
      "now.time": "00:00",
      "now.date": "2026-07-01",
    });
  });

  it("fills actions the same way whoever built it", () => {
    const context = templateContext(base);
    expect(renderTemplates({ slot: "{{ window.start }}-{{ window.end }}", limit: "{{ plan.kwh }}" }, context)).toEqual({
      slot: "01:30-05:00",
      limit: null,
    });
  });
});
