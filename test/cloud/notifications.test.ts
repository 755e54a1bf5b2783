import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../src/cloud/errors.js";
import { RateBudget } from "../../src/cloud/rate-budget.js";
import type { NotificationRequest } from "../../src/cloud/schemas/notification.js";
import { mockCloud } from "../helpers/mock-cloud.js";

const VALID: NotificationRequest = {
  platforms: ["persist", "push"],
  title: "Battery full",
  body: "The battery reached 100% at 14:05.",
  icon: "mdi-battery-charging-100",
};

const ACCOUNT = { id: 42, name: "jbloggs" };

/** Each test gets its own token: the notification budget is shared per base URL and token. */
let tokenSeq = 0;
const freshToken = (): string => `notify-token-${++tokenSeq}-${Date.now()}`;

/** Lets every pending I/O and timer-free callback run, without waiting on the clock. */
async function settleEventLoop(turns = 50): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe("notifications section", () => {
  let token: string;
  let cloud: ReturnType<typeof mockCloud>;
  beforeEach(() => {
    token = freshToken();
    cloud = mockCloud({ token });
  });
  afterEach(async () => {
    await cloud.close();
  });

  it("POST /notification/send sends exactly the notification and reads the top-level success", async () => {
    cloud.reply("POST", "/notification/send", { body: { success: true } });
    const result = await cloud.client.notifications.send(VALID);
    const request = cloud.only();
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/notification/send");
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toEqual({
      platforms: ["persist", "push"],
      title: "Battery full",
      body: "The battery reached 100% at 14:05.",
      icon: "mdi-battery-charging-100",
    });
    expect(result.success).toBe(true);
  });

  it("reads a success wrapped in data, and false as a delivery failure", async () => {
    cloud.reply("POST", "/notification/send", { body: { data: { success: false } } });
    const result = await cloud.client.notifications.send({ ...VALID, platforms: ["push"] });
    expect(cloud.only().body).toMatchObject({ platforms: ["push"] });
    expect(result.success).toBe(false);
  });

  it("refuses an answer without success", async () => {
    cloud.reply("POST", "/notification/send", { body: { message: "ok" } });
    await expect(cloud.client.notifications.send(VALID)).rejects.toMatchObject({
      name: "ResponseShapeError",
      field: "success",
    });
  });

  const broken: ReadonlyArray<[string, string, unknown]> = [
    ["no platforms", "platforms", { ...VALID, platforms: [] }],
    ["an unknown platform", "platforms.0", { ...VALID, platforms: ["email"] }],
    ["a 9-character title", "title", { ...VALID, title: "123456789" }],
    ["a title short once trimmed", "title", { ...VALID, title: "   short    " }],
    ["a title of 5 emoji (10 UTF-16 units)", "title", { ...VALID, title: "🔋🔋🔋🔋🔋" }],
    ["a 19-character body", "body", { ...VALID, body: "1234567890123456789" }],
    ["an icon without mdi-", "icon", { ...VALID, icon: "battery" }],
    ["a bare mdi- icon", "icon", { ...VALID, icon: "mdi-" }],
    ["an icon with upper case and spaces", "icon", { ...VALID, icon: "mdi-Battery Full" }],
    ["a missing title", "title", { platforms: ["push"], body: VALID.body, icon: VALID.icon }],
  ];

  for (const [what, field, notification] of broken) {
    it(`refuses ${what} before sending`, async () => {
      const sent = cloud.client.notifications.send(notification as NotificationRequest);
      await expect(sent).rejects.toBeInstanceOf(InvalidRequestError);
      await expect(sent).rejects.toMatchObject({ errors: { [field]: [expect.any(String)] } });
      expect(cloud.requests).toHaveLength(0);
    });
  }

  it("accepts the shortest title and body the service allows, counting emoji as one character", async () => {
    cloud.reply("POST", "/notification/send", { body: { success: true } }, 2);
    await cloud.client.notifications.send({ ...VALID, title: "1234567890", body: "12345678901234567890" });
    await cloud.client.notifications.send({ ...VALID, title: "🔋🔋🔋🔋🔋🔋🔋🔋🔋🔋" });
    expect(cloud.requests.map((r) => (r.body as { title: string }).title)).toEqual([
      "1234567890",
      "🔋🔋🔋🔋🔋🔋🔋🔋🔋🔋",
    ]);
  });

  it("refused notifications spend none of the 10-per-hour budget", async () => {
    cloud.reply("POST", "/notification/send", { body: { success: true } }, 10);
    for (let i = 0; i < 12; i++) {
      await expect(cloud.client.notifications.send({ ...VALID, icon: "no-prefix" })).rejects.toBeInstanceOf(
        InvalidRequestError,
      );
    }
    const results = await Promise.all(Array.from({ length: 10 }, () => cloud.client.notifications.send(VALID)));
    expect(results.every((r) => r.success)).toBe(true);
    expect(cloud.requests).toHaveLength(10);
  });

  it("does not retry a send the server failed", async () => {
    cloud.reply("POST", "/notification/send", { status: 502 }, 3);
    await expect(cloud.client.notifications.send(VALID)).rejects.toMatchObject({ name: "ServerError", status: 502 });
    expect(cloud.requests).toHaveLength(1);
  });
});

describe("notification rate budget", () => {
  it("is its own: it leaves the global budget alone, and the 11th send within the hour waits", async () => {
    const cloud = mockCloud({ budget: new RateBudget({ limit: 1, windowMs: 60_000 }), token: freshToken() });
    try {
      cloud.reply("POST", "/notification/send", { body: { success: true } }, 11);
      cloud.reply("GET", "/account", { body: { data: ACCOUNT } });
      const global = cloud.client.http.budget;

      // The global budget allows one request a minute; a send first, then the account, both pass at once.
      await expect(cloud.client.notifications.send(VALID)).resolves.toEqual({ success: true });
      expect(global.state().used).toBe(0);
      await expect(cloud.client.account.get()).resolves.toMatchObject({ id: 42 });
      expect(global.state().used).toBe(1);

      // Nine more sends make ten in the hour; the eleventh must wait for the window to end.
      const nine = Array.from({ length: 9 }, () => cloud.client.notifications.send(VALID));
      const controller = new AbortController();
      const eleventh = cloud.client.notifications.send(VALID, { signal: controller.signal });
      let eleventhSettled = false;
      eleventh.then(
        () => {
          eleventhSettled = true;
        },
        () => {
          eleventhSettled = true;
        },
      );
      const results = await Promise.all(nine);
      expect(results).toHaveLength(9);
      await settleEventLoop();
      expect(eleventhSettled).toBe(false);
      const sends = cloud.requests.filter((r) => r.path === "/v1/notification/send");
      expect(sends).toHaveLength(10);
      expect(global.state().used).toBe(1);

      // Abandoning the wait rejects it and nothing more is sent.
      controller.abort();
      await expect(eleventh).rejects.toMatchObject({ name: "AbortError" });
      expect(cloud.requests.filter((r) => r.path === "/v1/notification/send")).toHaveLength(10);
    } finally {
      await cloud.close();
    }
  });
});
