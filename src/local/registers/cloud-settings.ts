import { z } from "zod";
import raw from "../data/inverter-settings.gen3-hybrid.json" with { type: "json" };

/**
 * The cloud's descriptors (id, name, validation) of an inverter's settings, from a real Gen3
 * hybrid listing (../data/README.md says where it comes from), so a LAN device lists the settings its
 * model's map offers under the same ids, names and rules as the cloud does (but for a number's
 * range, which is its register's: ranges.ts), and the simulator lists all of them. Which a model
 * offers is controls.ts's business.
 */
const listingSchema = z.object({
  data: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      validation: z.string(),
      validation_rules: z.array(z.string()),
    }),
  ),
});

export type CloudSettingDescriptor = z.infer<typeof listingSchema>["data"][number];

export const CLOUD_SETTINGS: readonly CloudSettingDescriptor[] = listingSchema.parse(raw).data;
