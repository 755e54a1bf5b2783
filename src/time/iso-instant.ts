import { z } from "zod";

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An instant as a person writes it, with its offset so no machine's zone can change it: epoch ms. */
export const isoInstant = z
  .string()
  .refine((text) => ISO_WITH_OFFSET.test(text) && !Number.isNaN(Date.parse(text)), {
    message: "must be an ISO 8601 instant with its offset, e.g. 2026-06-21T13:00:00+01:00",
  })
  .transform((text) => Date.parse(text));
