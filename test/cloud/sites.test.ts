import { afterEach, describe, expect, it } from "vitest";
import { MOCK_TOKEN, mockCloud, pageOf } from "../helpers/mock-cloud.js";

const SITE = {
  id: 61435,
  name: "Home",
  account: "jbloggs",
  date_created: "2024-08-16",
  country: "UNITED_KINGDOM",
  timezone: "GMT+1",
  tz_timezone: "Europe/London",
  latitude: 51.5072,
  longitude: -0.1276,
  type: "SINGLE_PHASE",
  products: [{ name: "GIV-HY3.6", serial: "SA0000G000" }],
};

describe("sites section", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("GET /site sends the headers and the client's page size and parses the sites", async () => {
    cloud.reply("GET", "/site", { body: pageOf([SITE], 1, 1) });
    const sites = await cloud.client.sites.list().all();
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v1/site?page=1&pageSize=100");
    expect(request.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toBeUndefined();
    expect(sites).toEqual([SITE]);
  });

  it("pages through three pages, starting where asked", async () => {
    cloud.reply("GET", "/site", { body: pageOf([SITE, { ...SITE, id: 2 }], 1, 3) });
    cloud.reply("GET", "/site", {
      body: pageOf(
        [
          { ...SITE, id: 3 },
          { ...SITE, id: 4 },
        ],
        2,
        3,
      ),
    });
    cloud.reply("GET", "/site", { body: pageOf([{ ...SITE, id: 5 }], 3, 3) });
    const sites = await cloud.client.sites.list({ pageSize: 2 }).all();
    expect(sites.map((s) => s.id)).toEqual([61435, 2, 3, 4, 5]);
    expect(cloud.requests.map((r) => r.path)).toEqual([
      "/v1/site?page=1&pageSize=2",
      "/v1/site?page=2&pageSize=2",
      "/v1/site?page=3&pageSize=2",
    ]);
  });

  it("yields whole pages with their meta when iterated page by page", async () => {
    cloud.reply("GET", "/site", { body: pageOf([SITE], 2, 3) });
    cloud.reply("GET", "/site", { body: pageOf([{ ...SITE, id: 9 }], 3, 3) });
    const totals: number[] = [];
    for await (const page of cloud.client.sites.list({ pageSize: 1, firstPage: 2 })) {
      totals.push(Number(page.meta?.current_page));
    }
    expect(totals).toEqual([2, 3]);
    expect(cloud.requests.map((r) => r.path)).toEqual(["/v1/site?page=2&pageSize=1", "/v1/site?page=3&pageSize=1"]);
  });

  it("stops after one page when meta is missing and links.next is null", async () => {
    cloud.reply("GET", "/site", { body: { data: [SITE], links: { first: null, last: null, prev: null, next: null } } });
    const sites = await cloud.client.sites.list().all();
    expect(sites).toHaveLength(1);
    expect(cloud.requests).toHaveLength(1);
  });

  it("GET /site/{site_plant_id} unwraps data and tolerates numeric strings and nulls", async () => {
    cloud.reply("GET", "/site/61435", {
      body: { data: { ...SITE, latitude: "51.5072", longitude: "-0.1276", products: null, account: null } },
    });
    const site = await cloud.client.sites.get(61435);
    const request = cloud.only();
    expect(request.method).toBe("GET");
    expect(request.path).toBe("/v1/site/61435");
    expect(request.headers.authorization).toBe(`Bearer ${MOCK_TOKEN}`);
    expect(request.body).toBeUndefined();
    expect(site.latitude).toBe(51.5072);
    expect(site.longitude).toBe(-0.1276);
    expect(site.products).toEqual([]);
    expect(site.account).toBeNull();
    expect(site.tz_timezone).toBe("Europe/London");
  });

  it("names the endpoint and field when a site does not fit", async () => {
    cloud.reply("GET", "/site/1", { body: { data: { ...SITE, id: "one" } } });
    await expect(cloud.client.sites.get(1)).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "data.id",
      message: expect.stringContaining("Get Site (GET /site/{site_plant_id})"),
    });
  });
});
