import { z } from "zod";
import { defineEndpoint } from "../endpoint.js";
import type { CallOptions, CloudHttp } from "../http.js";
import { data, dataOrTopLevel } from "../schemas/common.js";
import {
  type ApplyProfileResult,
  applyProfileResult,
  type PresetProfile,
  type ProfilePreset,
  presetProfile,
  presetProfileAnswer,
  profileName,
  profilePreset,
} from "../schemas/inverter-control.js";

const PATH = "/inverter/{inverter_serial_number}/preset-profile";
const MANAGE = ["api:inverter:control:profile:manage"] as const;

export const presetProfileEndpoints = {
  list: defineEndpoint({
    name: "Get Preset Profiles",
    method: "GET",
    path: PATH,
    scopes: ["api:inverter:control:profile:list"],
  }),
  create: defineEndpoint({ name: "Create Preset Profile", method: "POST", path: PATH, scopes: MANAGE }),
  update: defineEndpoint({ name: "Update Preset Profile", method: "PUT", path: PATH, scopes: MANAGE }),
  apply: defineEndpoint({
    name: "Apply Preset Profile",
    method: "POST",
    path: `${PATH}/apply`,
    scopes: ["api:inverter:control", "api:inverter:control:profile:list"],
  }),
  delete: defineEndpoint({ name: "Delete Preset Profile", method: "DELETE", path: PATH, scopes: MANAGE }),
} as const;

export interface ProfileFilter {
  /** Exact match. */
  readonly name?: string;
  readonly presets?: readonly ProfilePreset[];
}

export interface ProfileRef {
  readonly name: string;
  readonly preset: ProfilePreset;
}

export interface ApplyProfileRequest {
  readonly name: string;
  /** Apply only these presets of the profile. */
  readonly presets?: readonly ProfilePreset[];
  readonly delete_after_apply?: boolean;
}

const filter = z.object({ name: profileName.optional(), presets: z.array(profilePreset).optional() });
const ref = z.object({ name: profileName, preset: profilePreset });
const applyRequest = z.object({
  name: profileName,
  presets: z.array(profilePreset).optional(),
  delete_after_apply: z.boolean().optional(),
});

export class PresetProfilesApi {
  constructor(private readonly http: CloudHttp) {}

  /** The inverter's profiles, optionally only those of one name or of some presets. */
  async list(serial: string, profiles: ProfileFilter = {}, options?: CallOptions): Promise<PresetProfile[]> {
    const endpoint = presetProfileEndpoints.list;
    const query = this.http.validate(endpoint, filter, profiles);
    return this.http.call(
      endpoint,
      { params: { inverter_serial_number: serial }, query: { name: query.name, presets: query.presets } },
      data(z.array(presetProfile)),
      options,
    );
  }

  /** Saves the preset's currently applied values as a named profile (201). */
  async create(serial: string, profile: ProfileRef, options?: CallOptions): Promise<PresetProfile> {
    const endpoint = presetProfileEndpoints.create;
    const body = this.http.validate(endpoint, ref, profile);
    return this.http.call(endpoint, { params: { inverter_serial_number: serial }, body }, presetProfileAnswer, options);
  }

  /** Replaces the named profile's values with the preset's currently applied ones. */
  async update(serial: string, profile: ProfileRef, options?: CallOptions): Promise<PresetProfile> {
    const endpoint = presetProfileEndpoints.update;
    const body = this.http.validate(endpoint, ref, profile);
    return this.http.call(endpoint, { params: { inverter_serial_number: serial }, body }, presetProfileAnswer, options);
  }

  /** Writes the named profile's values back; `success` is true only if every profile applied. */
  async apply(serial: string, request: ApplyProfileRequest, options?: CallOptions): Promise<ApplyProfileResult> {
    const endpoint = presetProfileEndpoints.apply;
    const body = this.http.validate(endpoint, applyRequest, request);
    return this.http.call(
      endpoint,
      { params: { inverter_serial_number: serial }, body },
      dataOrTopLevel(applyProfileResult),
      options,
    );
  }

  /** Deletes a profile; only the actor that created it may. */
  async delete(serial: string, profile: ProfileRef, options?: CallOptions): Promise<{ success: boolean }> {
    const endpoint = presetProfileEndpoints.delete;
    const body = this.http.validate(endpoint, ref, profile);
    return this.http.call(
      endpoint,
      { params: { inverter_serial_number: serial }, body },
      dataOrTopLevel(z.object({ success: z.boolean() })),
      options,
    );
  }
}
