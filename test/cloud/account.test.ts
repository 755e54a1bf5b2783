import { afterEach, describe, expect, it } from "vitest";
import { MOCK_TOKEN, mockCloud, pageOf } from "../helpers/mock-cloud.js";

const ACCOUNT = {
  id: 42,
  name: "jbloggs",
  first_name: "Joe",
  surname: "Bloggs",
  role: "OWNER",
  email: "joe@example.com",
  address: "1 High Street\nTown",
  postcode: "AB1 2CD",
  country: "UNITED_KINGDOM",
  telephone_number: "01234 567890",
  timezone: "GMT+1",
  standard_timezone: "Europe/London",
  company: null,
  flags: ["beta"],
  some_future_field: true,
};

const DEVICE = {
  serial_number: "WK0000G000",
  type: "WIFI",
  firmware_version: null,
  commission_date: "2025-09-23T00:00:00Z",
  site_id: 61435,
};

describe("account section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("GET /account sends the three required headers and parses the account", async () => {
    cloud.reply("GET", "/account", { body: { data: ACCOUNT } });
    const account = await cloud.client.account.get();
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v1/account");
    expect(request.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toBeUndefined();
    expect(account.standard_timezone).toBe("Europe/London");
    expect(account.flags).toEqual(["beta"]);
    expect(account).not.toHaveProperty("some_future_field");
  });

  it("tolerates the older account shape without first_name, surname, company and flags", async () => {
    const { first_name, surname, company, flags, ...older } = ACCOUNT;
    cloud.reply("GET", "/account", { body: { data: older } });
    const account = await cloud.client.account.get();
    expect(account.first_name).toBeUndefined();
    expect(account.flags).toEqual([]);
  });

  it("GET /account/{user_id} encodes the id as a path segment", async () => {
    cloud.reply("GET", "/account/7%2F8", { body: { data: ACCOUNT } });
    await cloud.client.account.getById("7/8");
    expect(cloud.only().path).toBe("/v1/account/7%2F8");
  });

  it("GET /account/{username}/devices pages through every device", async () => {
    cloud.reply("GET", "/account/jbloggs/devices", { body: pageOf([DEVICE, DEVICE], 1, 2) });
    cloud.reply("GET", "/account/jbloggs/devices", { body: pageOf([{ ...DEVICE, serial_number: "WK2" }], 2, 2) });
    const devices = await cloud.client.account.devices("jbloggs", { pageSize: 2 }).all();
    expect(devices.map((d) => d.serial_number)).toEqual(["WK0000G000", "WK0000G000", "WK2"]);
    expect(cloud.requests.map((r) => r.path)).toEqual([
      "/v1/account/jbloggs/devices?page=1&pageSize=2",
      "/v1/account/jbloggs/devices?page=2&pageSize=2",
    ]);
  });

  it("GET /account/search/{username}", async () => {
    cloud.reply("GET", "/account/search/joe", { body: { data: ACCOUNT } });
    const account = await cloud.client.account.search("joe");
    expect(cloud.only().path).toBe("/v1/account/search/joe");
    expect(account.id).toBe(42);
  });

  it("GET /account-children uses the client's page size", async () => {
    cloud.reply("GET", "/account-children", { body: pageOf([ACCOUNT], 1, 1) });
    const children = await cloud.client.account.children().all();
    expect(cloud.only().path).toBe("/v1/account-children?page=1&pageSize=100");
    expect(children).toHaveLength(1);
  });

  it("GET /account-children/{user_id}", async () => {
    cloud.reply("GET", "/account-children/42", { body: pageOf([ACCOUNT, ACCOUNT], 1, 1) });
    const children = await cloud.client.account.childrenOf(42, { pageSize: 5 }).all();
    expect(cloud.only().path).toBe("/v1/account-children/42?page=1&pageSize=5");
    expect(children).toHaveLength(2);
  });

  it("GET /sso/me/accounts is a plain list", async () => {
    cloud.reply("GET", "/sso/me/accounts", { body: { data: [ACCOUNT] } });
    const accounts = await cloud.client.account.ssoAccounts();
    expect(cloud.only().path).toBe("/v1/sso/me/accounts");
    expect(accounts[0]?.name).toBe("jbloggs");
  });

  it("names the endpoint and the field when the answer does not fit", async () => {
    cloud.reply("GET", "/account", { body: { data: { ...ACCOUNT, id: "not a number" } } });
    await expect(cloud.client.account.get()).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "data.id",
      message: expect.stringContaining("Get Account (GET /account)"),
    });
  });
});
