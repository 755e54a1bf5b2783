import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEndpoint, encodeQuery, fillPath } from "../../src/cloud/endpoint.js";
import {
  AuthenticationError,
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  SubscriptionRequiredError,
  TransportError,
  ValidationError,
} from "../../src/cloud/errors.js";
import { RateBudget } from "../../src/cloud/rate-budget.js";
import { data } from "../../src/cloud/schemas/common.js";
import { mockCloud } from "../helpers/mock-cloud.js";

const ACCOUNT = { id: 1, name: "owner" };
const readEndpoint = defineEndpoint({ name: "Test Read", method: "GET", path: "/thing", scopes: ["api:thing:read"] });
const writeEndpoint = defineEndpoint({ name: "Test Write", method: "POST", path: "/thing", scopes: [] });

describe("query and path encoding", () => {
  it("encodes arrays as name[]=value and booleans as 1/0, skipping empty values", () => {
    expect(
      encodeQuery({ measurands: [4, 13], cleared: true, open: false, start: "2025-01-01 00:00:00", none: undefined }),
    ).toBe("?measurands[]=4&measurands[]=13&cleared=1&open=0&start=2025-01-01%2000%3A00%3A00");
    expect(encodeQuery({})).toBe("");
  });

  it("encodes each path parameter as one segment and refuses a missing one", () => {
    expect(fillPath("/inverter/{serial}/snapshot/{name}", { serial: "SA1", name: "before rule/1" })).toBe(
      "/inverter/SA1/snapshot/before%20rule%2F1",
    );
    expect(() => fillPath("/inverter/{serial}", {})).toThrow(/missing path parameter "serial"/);
  });
});

describe("status codes become typed errors", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  const cases = [
    { status: 400, type: BadRequestError, text: /request was valid but failed/ },
    { status: 401, type: AuthenticationError, text: /API tokens/ },
    { status: 402, type: SubscriptionRequiredError, text: /premium subscription/ },
    { status: 404, type: NotFoundError, text: /not found/ },
  ] as const;
  for (const { status, type, text } of cases) {
    it(`${status} is a ${type.name}`, async () => {
      cloud.reply("GET", "/account", { status, body: { message: "nope" } });
      const error = await cloud.client.account.get().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(type);
      expect((error as Error).message).toMatch(text);
      expect((error as Error).message).toContain("Get Account (GET /account)");
    });
  }

  it("403 names the scopes and account type the endpoint needs", async () => {
    cloud.reply("GET", "/account-children/9", { status: 403, body: { message: "Forbidden" } });
    const error = await cloud.client.account
      .childrenOf(9)
      .all()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as Error).message).toContain("api:account:read, api:account:list");
    expect((error as Error).message).toContain("company+");
  });

  it("422 carries the errors by field", async () => {
    cloud.reply("POST", "/thing", {
      status: 422,
      body: { message: "The given data was invalid.", errors: { snapshot: ["exists"] } },
    });
    const error = await cloud.client.http.call(writeEndpoint, { body: {} }, z.unknown()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual({ snapshot: ["exists"] });
    expect((error as Error).message).toContain("snapshot: exists");
  });

  for (const status of [500, 502, 503, 504]) {
    it(`${status} is a ServerError after the read's retries run out`, async () => {
      cloud.reply("GET", "/thing", { status }, 4);
      const error = await cloud.client.http.call(readEndpoint, {}, z.unknown()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect((error as ServerError).status).toBe(status);
      expect(cloud.requests).toHaveLength(4);
    });
  }
});

describe("retries", () => {
  let cloud = mockCloud();
  afterEach(async () => {
    await cloud.close();
    cloud = mockCloud();
  });

  it("retries a GET after 503 and 504 and returns the answer", async () => {
    cloud.reply("GET", "/account", { status: 503 });
    cloud.reply("GET", "/account", { status: 504 });
    cloud.reply("GET", "/account", { body: { data: ACCOUNT } });
    expect((await cloud.client.account.get()).name).toBe("owner");
    expect(cloud.requests).toHaveLength(3);
  });

  it("retries a GET after a connection failure", async () => {
    cloud.replyWithError("GET", "/account", new Error("socket hang up"));
    cloud.reply("GET", "/account", { body: { data: ACCOUNT } });
    expect((await cloud.client.account.get()).id).toBe(1);
  });

  it("gives up on a connection failure with a TransportError", async () => {
    const local = mockCloud({ retry: { attempts: 1 } });
    local.replyWithError("GET", "/account", new Error("connect ECONNREFUSED"));
    await expect(local.client.account.get()).rejects.toBeInstanceOf(TransportError);
    await local.close();
  });

  it("never retries a write after a 5xx: the caller reads back first", async () => {
    cloud.reply("POST", "/thing", { status: 503 }, 2);
    await expect(cloud.client.http.call(writeEndpoint, { body: { value: 1 } }, z.unknown())).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(cloud.requests).toHaveLength(1);
  });

  it("does not retry 4xx answers", async () => {
    cloud.reply("GET", "/account", { status: 401 }, 2);
    await expect(cloud.client.account.get()).rejects.toBeInstanceOf(AuthenticationError);
    expect(cloud.requests).toHaveLength(1);
  });
});

describe("429", () => {
  it("pauses the token until the window ends, then sends the request again", async () => {
    const budget = new RateBudget({ limit: 100, windowMs: 150 });
    const cloud = mockCloud({ budget });
    cloud.reply("GET", "/account", {
      status: 429,
      headers: { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "0" },
    });
    cloud.reply("GET", "/account", { body: { data: ACCOUNT } });
    const started = Date.now();
    expect((await cloud.client.account.get()).id).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(cloud.requests).toHaveLength(2);
    await cloud.close();
  });

  it("is a RateLimitedError when the attempts run out", async () => {
    const cloud = mockCloud({ budget: new RateBudget({ limit: 100, windowMs: 20 }), retry: { attempts: 2 } });
    cloud.reply("GET", "/account", { status: 429 }, 2);
    const error = await cloud.client.account.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAtMs).toBeGreaterThan(Date.now() - 1000);
    await cloud.close();
  });
});

describe("pagination", () => {
  it("follows links.next when meta is absent and stops at null", async () => {
    const cloud = mockCloud();
    const endpoint = defineEndpoint({ name: "List", method: "GET", path: "/list", scopes: [] });
    cloud.reply("GET", "/list", { body: { data: [1, 2], links: { next: "https://cloud.test/v1/list?page=2" } } });
    cloud.reply("GET", "/list", { body: { data: [3], links: { next: null } } });
    const pages: number[][] = [];
    for await (const page of cloud.client.http.paginate(endpoint, {}, z.number(), { pageSize: 2 }))
      pages.push(page.data);
    expect(pages).toEqual([[1, 2], [3]]);
    expect(cloud.requests.map((r) => r.path)).toEqual(["/v1/list?page=1&pageSize=2", "/v1/list?page=2&pageSize=2"]);
    await cloud.close();
  });

  it("fetches lazily: breaking out of the loop sends no more requests", async () => {
    const cloud = mockCloud();
    const endpoint = defineEndpoint({ name: "List", method: "GET", path: "/list", scopes: [] });
    const meta = { current_page: 1, last_page: 5, per_page: 1, total: 5 };
    cloud.reply("GET", "/list", { body: { data: [1], meta } });
    for await (const item of cloud.client.http.paginate(endpoint, {}, z.number()).items()) {
      expect(item).toBe(1);
      break;
    }
    expect(cloud.requests).toHaveLength(1);
    await cloud.close();
  });

  it("parses a response that declares text/plain but carries JSON", async () => {
    const cloud = mockCloud();
    cloud.reply("GET", "/thing", { body: { data: { n: 1 } }, headers: { "content-type": "text/plain" } });
    expect(await cloud.client.http.call(readEndpoint, {}, data(z.object({ n: z.number() })))).toEqual({ n: 1 });
    await cloud.close();
  });
});
