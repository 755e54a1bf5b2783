import { z } from "zod";
import { opt } from "./common.js";

/**
 * The service counts characters (code points, so an emoji is one) after trimming surrounding
 * whitespace, as its Laravel-style validation does; counting the same way keeps a notification
 * that would be refused from spending the hourly budget, without refusing one it would accept.
 */
const atLeast =
  (min: number) =>
  (text: string): boolean =>
    Array.from(text.trim()).length >= min;

export const NOTIFICATION_PLATFORMS = ["persist", "push"] as const;
export type NotificationPlatform = (typeof NOTIFICATION_PLATFORMS)[number];

/**
 * Body of POST /notification/send, checked before sending: the endpoint allows 10 requests
 * an hour, and a refused one would still count.
 */
export const notificationRequest = z.object({
  /** persist: the notification centre in the portal and app; push: every logged-in phone. */
  platforms: z.array(z.enum(NOTIFICATION_PLATFORMS)).min(1, "at least one platform is required"),
  title: z.string().refine(atLeast(10), "the title needs at least 10 characters"),
  body: z.string().refine(atLeast(20), "the body needs at least 20 characters"),
  /** A Material Design icon name, e.g. mdi-solar-power. */
  icon: z
    .string()
    .regex(/^mdi-[a-z0-9]+(-[a-z0-9]+)*$/, 'the icon must be a Material Design icon name starting with "mdi-"'),
});
export type NotificationRequest = z.input<typeof notificationRequest>;

/** false means delivery failed on at least one platform. */
export const notificationResult = z.object({
  success: z.boolean(),
  message: opt(z.string()),
});
export type NotificationResult = z.infer<typeof notificationResult>;
