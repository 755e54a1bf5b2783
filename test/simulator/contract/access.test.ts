import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  SubscriptionRequiredError,
} from "../../../src/cloud/errors.js";
import { RateBudget } from "../../../src/cloud/rate-budget.js";
import { startTestSimulator } from "../../helpers/simulator.js";

const START = Date.UTC(2025, 5, 15, 11, 0, 0);

describe("simulator: authentication, access and rate limits", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0, start: START });
  });
  afterAll(async () => {
    await sim.stop();
  });

  it("answers 401 to a token it does not know", async () => {
    const client = sim.clientFor("owner", { token: "not-a-real-token" });
    await expect(client.account.get()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("answers 401 to a request without a bearer token, with rate headers", async () => {
    const response = await fetch(`${sim.simulator.url}/account`, { headers: { accept: "application/json" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("x-ratelimit-limit")).toBe("300");
  });

  it("answers 402 to every endpoint for an account without a subscription", async () => {
    const free = sim.clientFor("free");
    await expect(free.account.get()).rejects.toBeInstanceOf(SubscriptionRequiredError);
    await expect(free.sites.list().all()).rejects.toBeInstanceOf(SubscriptionRequiredError);
  });

  it("answers 403 naming the scope a read-only token lacks", async () => {
    const readonly = sim.clientFor("readonly");
    expect((await readonly.account.get()).name).toBe("demo-owner");
    const error = await readonly.inverterControl.settings("SD2024G001").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(JSON.stringify((error as ForbiddenError).body)).toContain("api:inverter:control");
  });

  it("keeps engineer+ and company+ endpoints from lower account types", async () => {
    const owner = sim.clientFor("owner");
    await expect(owner.account.children().all()).rejects.toBeInstanceOf(ForbiddenError);
    const engineer = sim.clientFor("engineer");
    await expect(engineer.account.childrenOf(1001).all()).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("lets an engineer see the accounts and devices below it", async () => {
    const engineer = sim.clientFor("engineer");
    const children = await engineer.account.children().all();
    expect(children.map((a) => a.name)).toEqual(["demo-owner"]);
    expect((await engineer.account.getById(1001)).name).toBe("demo-owner");
    expect((await engineer.account.search("demo-owner")).id).toBe(1001);
    const devices = await engineer.account.devices("demo-owner").all();
    expect(devices.map((d) => d.inverter?.serial)).toContain("SD2024G001");
    await expect(engineer.account.getById(3001)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("lets a company list the children of an account below it", async () => {
    const company = sim.clientFor("company");
    const children = await company.account.childrenOf(2001).all();
    expect(children.map((a) => a.name)).toEqual(["demo-owner"]);
  });

  it("answers 404 for an inverter the account does not have", async () => {
    const owner = sim.clientFor("owner");
    await expect(owner.inverterData.systemDataLatest("SX0000NONE")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("simulator: rate limits", () => {
  it("counts every answered request in a window that opens at the first one, then answers 429", async () => {
    const sim = await startTestSimulator({ speed: 0, start: START, requestsPerMinute: 5 });
    try {
      const statuses: number[] = [];
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 7; i++) {
        const response = await fetch(`${sim.simulator.url}/account`, {
          headers: { authorization: `Bearer ${sim.simulator.tokens.owner}`, accept: "application/json" },
        });
        statuses.push(response.status);
        remaining.push(response.headers.get("x-ratelimit-remaining"));
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(remaining).toEqual(["4", "3", "2", "1", "0", "0", "0"]);
      // Another token has a window of its own.
      const readonly = await fetch(`${sim.simulator.url}/account`, {
        headers: { authorization: `Bearer ${sim.simulator.tokens.readonly}`, accept: "application/json" },
      });
      expect(readonly.status).toBe(200);
    } finally {
      await sim.stop();
    }
  });

  it("takes a tighter limit from the admin API, with fresh windows", async () => {
    const sim = await startTestSimulator({ speed: 0, start: START });
    try {
      await sim.admin("/rate-limit", { requests_per_minute: 2 });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${sim.simulator.url}/account`, {
          headers: { authorization: `Bearer ${sim.simulator.tokens.owner}` },
        });
        statuses.push(response.status);
        expect(response.headers.get("x-ratelimit-limit")).toBe("2");
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await sim.stop();
    }
  });

  it("never gets a 429 from the client, which waits for the window instead", async () => {
    const sim = await startTestSimulator({ speed: 0, start: START, requestsPerMinute: 4 });
    try {
      const budget = new RateBudget({ limit: 300, windowMs: 1_000 });
      const client = sim.clientFor("owner", { budget, retry: { attempts: 1 } });
      // The client believes 300 per second but the server allows 4: the headers correct it.
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => client.account.get()));
      expect(results.every((r) => r.status === "fulfilled")).toBe(true);
      expect(budget.state().used).toBeGreaterThanOrEqual(4);
      expect(budget.state().limit).toBe(4);
    } finally {
      await sim.stop();
    }
  });

  it("gives notification send its own 10 an hour, not counted globally", async () => {
    const sim = await startTestSimulator({ speed: 0, start: START, requestsPerMinute: 3 });
    try {
      const client = sim.clientFor("owner", { retry: { attempts: 1 } });
      const notification = {
        platforms: ["persist" as const],
        title: "Battery charged",
        body: "The battery reached 100% overnight.",
        icon: "mdi-battery",
      };
      for (let i = 0; i < 10; i++) expect((await client.notifications.send(notification)).success).toBe(true);
      // The client will not send an 11th within the hour: it waits for its budget.
      const signal = AbortSignal.timeout(200);
      await expect(client.notifications.send(notification, { signal })).rejects.toThrow();
      // Sent anyway, the server answers 429.
      const eleventh = await fetch(`${sim.simulator.url}/notification/send`, {
        method: "POST",
        headers: { authorization: `Bearer ${sim.simulator.tokens.owner}`, "content-type": "application/json" },
        body: JSON.stringify(notification),
      });
      expect(eleventh.status).toBe(429);
      expect(eleventh.headers.get("x-ratelimit-limit")).toBe("10");
      // Ten sends did not touch the global limit of 3.
      expect((await client.account.get()).id).toBe(1001);
      const sent = (await sim.admin("/notifications", undefined, "GET")) as { data: { body: string }[] };
      expect(sent.data).toHaveLength(10);
      expect(sent.data[0]?.body).toMatch(/The battery reached 100% overnight\.\n\nSent via API token "owner"/);
    } finally {
      await sim.stop();
    }
  });
});
