import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, ForbiddenError, RefusalWatch } from "../../src/cloud/index.js";
import { startTestSimulator } from "../helpers/simulator.js";

const REFUSED =
  "refused: the token is wrong or the account lacks the vendor's API subscription (required since May 2026)";

describe("a 401/403: a wrong token or an account without the API subscription", () => {
  it("is a refusal at the first 401, and at a 403 only once two endpoints give it with no success between", () => {
    const watch = new RefusalWatch();
    watch.record("Get Account", 200);
    watch.record("List EV Chargers", 403);
    expect(watch.current()).toBeUndefined();
    watch.record("Get Account", 200);
    watch.record("List EV Chargers", 403);
    expect(watch.current()).toBeUndefined();
    watch.record("Get Latest System Data", 403);
    expect(watch.current()).toMatchObject({ status: 403, likelier: "subscription" });
    watch.record("Get Account", 200);
    expect(watch.current()).toBeUndefined();
    watch.record("Get Account", 401);
    expect(watch.current()?.text).toContain(`${REFUSED} (401)`);
    watch.record("Get Account", undefined);
    watch.record("Get Account", 503);
    expect(watch.current()?.status).toBe(401);
  });

  it("says the token is likelier when it never worked, the subscription when it did (in this run or one before)", () => {
    const fresh = new RefusalWatch();
    fresh.record("Get Account", 401);
    expect(fresh.current()).toMatchObject({ likelier: "token" });
    expect(fresh.current()?.text).toContain("a wrong or mistyped token is likelier");
    const known = new RefusalWatch(true);
    known.record("Get Account", 401);
    expect(known.current()).toMatchObject({ likelier: "subscription" });
    expect(known.current()?.text).toContain("a lapsed subscription is likelier");
  });
});

describe("the simulator's subscription switch, through the cloud client", () => {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>;
  beforeAll(async () => {
    sim = await startTestSimulator({ speed: 0 });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it("answers every call 401 (or 403) as for an account without the subscription, until switched back", async () => {
    const client = sim.clientFor("owner");
    await expect(client.account.get()).resolves.toMatchObject({ id: expect.any(Number) });
    await sim.admin("/subscription", { active: false });
    try {
      const refused = client.account.get();
      await expect(refused).rejects.toBeInstanceOf(AuthenticationError);
      await expect(client.sites.list().all()).rejects.toThrow(`${REFUSED} (401)`);
      await sim.admin("/subscription", { active: false, status: 403 });
      await expect(client.account.get()).rejects.toBeInstanceOf(ForbiddenError);
      await expect(client.account.get()).rejects.toThrow(REFUSED);
      expect(await sim.admin("/subscription", undefined, "GET")).toEqual({ data: { active: false, status: 403 } });
      await expect(sim.admin("/subscription", { active: false, status: 500 })).rejects.toThrow(/HTTP 422/);
    } finally {
      await sim.admin("/subscription", { active: true });
    }
    await expect(client.account.get()).resolves.toMatchObject({ id: expect.any(Number) });
  });
});
