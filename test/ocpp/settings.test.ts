import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/index.js";
import { centralSystemSettings } from "../../src/ocpp/index.js";

describe("the central system's settings from the ocpp: block", () => {
  it("maps the block, reading the TLS files only when tls is set", () => {
    const read: string[] = [];
    const readPem = (file: string) => {
      read.push(file);
      return `PEM of ${file}`;
    };
    const plain = configSchema.parse({
      ocpp: { enabled: true, charge_points: [{ id: "CP1", password: "long-enough-secret" }] },
    }).ocpp;
    expect(centralSystemSettings(plain, readPem)).toEqual({
      host: "127.0.0.1",
      port: 9000,
      chargePoints: [{ id: "CP1", password: "long-enough-secret" }],
      authorisation: { policy: "accept_all" },
      heartbeatSeconds: 60,
    });
    expect(read).toEqual([]);

    const secure = configSchema.parse({
      ocpp: {
        enabled: true,
        port: 9443,
        charge_points: [{ id: "CP1", password: "long-enough-secret" }],
        authorisation: { policy: "id_tags", id_tags: ["TAG1"] },
        tls: { cert_file: "ocpp.crt", key_file: "ocpp.key" },
        heartbeat: "5m",
      },
    }).ocpp;
    expect(centralSystemSettings(secure, readPem)).toMatchObject({
      port: 9443,
      authorisation: { policy: "id_tags", idTags: ["TAG1"] },
      tls: { cert: "PEM of ocpp.crt", key: "PEM of ocpp.key" },
      heartbeatSeconds: 300,
    });
    expect(read).toEqual(["ocpp.crt", "ocpp.key"]);
  });
});
