import { topLevel } from "../envelope.js";
import { bodyObject, type Route } from "../route.js";
import { validate } from "./validation.js";

export const notificationRoutes: readonly Route[] = [
  {
    method: "POST",
    path: "/notification/send",
    scopes: ["api:notification:send"],
    customLimit: { requests: 10, minutes: 60 },
    handle: (c) => {
      const problem = validate(c.body, {
        platforms: ["required", "array", "min:1"],
        "platforms.*": ["in:persist,push"],
        title: ["required", "string", "min:10"],
        body: ["required", "string", "min:20"],
        icon: ["required", "string"],
      });
      if (problem) return problem;
      const body = bodyObject(c.body);
      const icon = String(body.icon);
      if (!/^mdi-[a-z0-9]+(-[a-z0-9]+)*$/.test(icon)) {
        return {
          status: 422,
          body: {
            message: "The given data was invalid.",
            errors: { icon: ["The icon must be a valid Material Design icon name starting with mdi-."] },
          },
        };
      }
      // The service appends a line naming the sender.
      const sender = c.actor.type === "service" ? "a linked application" : `API token "${c.actor.name}"`;
      c.world.notifications.push({
        actor: c.actor.name,
        platforms: (body.platforms as unknown[]).map(String),
        title: String(body.title),
        body: `${String(body.body)}\n\nSent via ${sender}`,
        icon,
        at: c.now,
      });
      return topLevel({ success: true });
    },
  },
];
