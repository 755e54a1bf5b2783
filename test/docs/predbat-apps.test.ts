import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";

/**
 * docs/predbat/apps.yaml names energy2mqtt's own entities for Predbat: every one must be in the
 * discovery the daemon announces under the default naming. The discovery is what the real broker
 * kept retained for the demo house and the EMS plant, as test/app/ha-retained.test.ts records it
 * byte for byte in test/app/__retained__/ (so a renamed entity fails here once those are updated).
 */
const ROOT = join(import.meta.dirname, "../..");
const ENTITY = /^(sensor|binary_sensor|number|switch|select|time|button)\.[a-z0-9_{}]+$/;

function discoveredIds(scenario: string): Set<string> {
  const dump = readFileSync(join(ROOT, "test/app/__retained__", `${scenario}.cloud.txt`), "utf8");
  return new Set([...dump.matchAll(/"default_entity_id":"([^"]+)"/g)].map((match) => match[1] ?? ""));
}

/** Every entity id the document names, its `{key}` placeholders filled from the document's own keys. */
function namedEntities(config: Readonly<Record<string, unknown>>, serials: Readonly<Record<string, string>>): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === "string" && ENTITY.test(value))
      found.push(value.replace(/\{(\w+)\}/g, (_, key: string) => serials[key] ?? `{${key}}`));
    else if (Array.isArray(value)) value.forEach(visit);
  };
  Object.values(config).forEach(visit);
  return found;
}

const documents = parseAllDocuments(readFileSync(join(ROOT, "docs/predbat/apps.yaml"), "utf8")).map(
  (document) => (document.toJS() as { pred_bat: Record<string, unknown> }).pred_bat,
);

describe("docs/predbat/apps.yaml", () => {
  it("is three Predbat configurations (one inverter, two, an EMS plant) without Predbat's cloud client", () => {
    expect(documents).toHaveLength(3);
    for (const config of documents) {
      expect(config).toMatchObject({ module: "predbat", class: "PredBat" });
      expect(config.ge_cloud_direct).toBeUndefined();
      const count = Number(config.num_inverters);
      for (const key of ["inverter_type", "reserve", "soc_max", "soc_percent", "charge_start_time", "inverter_mode"])
        expect((config[key] as unknown[]).length, key).toBe(count);
    }
  });

  it("names only entities the demo house announces (one inverter)", () => {
    const ids = discoveredIds("demo");
    const [one] = documents;
    const named = namedEntities(one ?? {}, { geserial: "sd2024g001" });
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
  });

  it("names, for each of two inverters, the entities the demo house announces for its one", () => {
    // The demo house has one inverter: both serials are looked up as the demo's, which checks each name's shape.
    const ids = discoveredIds("demo");
    const two = documents[1] ?? {};
    expect(two).toMatchObject({ geserial: "sd2024g001", geserial2: "sd2024g002" });
    const named = namedEntities(two, { geserial: "sd2024g001", geserial2: "sd2024g001" });
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
  });

  it("names only entities the EMS plant announces, its controls on the EMS", () => {
    const ids = discoveredIds("plant-ems");
    const ems = documents[2] ?? {};
    const named = namedEntities(ems, {
      emsserial: String(ems.emsserial),
      geserial: String(ems.geserial),
    });
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((id) => !ids.has(id))).toEqual([]);
    const controls = named.filter((id) => /^(number|switch|select|time)\./.test(id));
    expect(controls.length).toBeGreaterThan(10);
    expect(controls.filter((id) => !/^[a-z_]+\.ems_em2025e001_/.test(id))).toEqual([]);
  });
});
