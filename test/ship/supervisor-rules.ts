import { z } from "zod";

/**
 * The Home Assistant Supervisor's rules for an add-on ("app") that apply to ours, ported from
 * home-assistant/supervisor at commit 090ef31ec024952c2469ed5a7c9f3ce8c1a5499e. Each rule cites
 * the file and line it comes from; the Supervisor validates with voluptuous, here with zod.
 */

/** supervisor/const.py:414-416: ARCH_ALL is aarch64 and amd64; armhf, armv7 and i386 are ARCH_DEPRECATED. */
export const ARCH_ALL = ["aarch64", "amd64"] as const;
export const ARCH_DEPRECATED = ["armhf", "armv7", "i386"] as const;

/** supervisor/apps/const.py:54 (RE_SLUG), anchored by supervisor/apps/validate.py:188 (RE_SLUG_FIELD). */
export const RE_SLUG_FIELD = /^[-_.A-Za-z0-9]+$/;

/** supervisor/apps/validate.py:139. */
export const RE_SERVICE = /^(?<service>mqtt|mysql):(?<rights>provide|want|need)$/;

/** supervisor/apps/validate.py:136-138: the string form of a `map` entry. */
export const RE_VOLUME =
  /^(data|config|ssl|local_apps|addons|backup|share|media|homeassistant_config|all_app_configs|all_addon_configs|app_config|addon_config)(?::(rw|ro))?$/;

/** supervisor/apps/const.py:16-33 (MappingType), and the three legacy ones deprecated as of 2026.07 (validate.py:261-274). */
export const MAPPING_TYPES = [
  "data",
  "config",
  "ssl",
  "local_apps",
  "backup",
  "share",
  "media",
  "homeassistant_config",
  "all_app_configs",
  "app_config",
] as const;
export const LEGACY_MAPPING_TYPES: Readonly<Record<string, string>> = {
  addons: "local_apps",
  all_addon_configs: "all_app_configs",
  addon_config: "app_config",
};

/** supervisor/apps/options.py:31-45 (RE_SCHEMA_ELEMENT): the type of one option. */
export const RE_SCHEMA_ELEMENT = new RegExp(
  [
    "^(?:",
    "|bool",
    "|email",
    "|url",
    "|port",
    "|device(?:\\((?<filter>subsystem=[a-z]+)\\))?",
    "|str(?:\\((?<s_min>\\d+)?,(?<s_max>\\d+)?\\))?",
    "|password(?:\\((?<p_min>\\d+)?,(?<p_max>\\d+)?\\))?",
    "|int(?:\\((?<i_min>-?\\d+)?,(?<i_max>-?\\d+)?\\))?",
    "|float(?:\\((?<f_min>-?\\d*\\.?\\d+)?,(?<f_max>-?\\d*\\.?\\d+)?\\))?",
    "|match\\((?<match>.*)\\)",
    "|list\\((?<list>.+)\\)",
    ")\\??$",
  ].join(""),
);

/** supervisor/validate.py:70 (_RE_IMAGE_PATH_COMPONENT) and docker/utils.py:19-24 (the registry's domain). */
const RE_IMAGE_PATH_COMPONENT = /^[a-z0-9{][a-z0-9.\-_{}]*$/;
const RE_REGISTRY_DOMAIN =
  /^(?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[(?:[a-fA-F0-9:]+)\])(?::[0-9]+)?$/;

/**
 * supervisor/validate.py:73-105 (docker_image), with docker/utils.py:27-67 (split_docker_domain):
 * a lowercase registry, no tag (the tag is the add-on's `version`), lowercase path components.
 */
export function dockerImageProblem(image: string): string | undefined {
  const [first, ...rest] = image.split("/");
  const isDomain =
    rest.length > 0 &&
    first !== undefined &&
    (first === "localhost" || first.includes(".") || first.includes(":") || first.toLowerCase() !== first);
  const registry = isDomain ? first : undefined;
  const path = isDomain ? rest.join("/") : image;
  if (registry !== undefined) {
    if (registry !== registry.toLowerCase()) return `registry must be lowercase: ${image}`;
    if (!RE_REGISTRY_DOMAIN.test(registry)) return `invalid registry '${registry}' in: ${image}`;
  }
  if (!path) return `no name: ${image}`;
  if (path.includes(":")) return `must not contain a tag: ${image}`;
  const bad = path.split("/").find((component) => !RE_IMAGE_PATH_COMPONENT.test(component));
  return bad === undefined ? undefined : `invalid path component '${bad}' in: ${image}`;
}

/** Every key _SCHEMA_APP_CONFIG knows (supervisor/apps/validate.py:454-557); anything else is dropped (REMOVE_EXTRA, :556). */
export const KNOWN_KEYS = [
  "name",
  "version",
  "slug",
  "description",
  "arch",
  "machine",
  "url",
  "startup",
  "boot",
  "init",
  "advanced",
  "stage",
  "ports",
  "ports_description",
  "watchdog",
  "webui",
  "ingress",
  "ingress_port",
  "ingress_entry",
  "ingress_stream",
  "panel_icon",
  "panel_title",
  "panel_admin",
  "homeassistant",
  "host_network",
  "host_pid",
  "host_ipc",
  "host_uts",
  "host_dbus",
  "devices",
  "udev",
  "tmpfs",
  "map",
  "environment",
  "privileged",
  "apparmor",
  "full_access",
  "audio",
  "video",
  "gpio",
  "usb",
  "uart",
  "devicetree",
  "kernel_modules",
  "realtime",
  "hassio_api",
  "hassio_role",
  "homeassistant_api",
  "stdin",
  "legacy",
  "docker_api",
  "auth_api",
  "services",
  "discovery",
  "backup_exclude",
  "backup_pre",
  "backup_post",
  "backup",
  "options",
  "schema",
  "image",
  "ulimits",
  "timeout",
  "journald",
  "breaking_versions",
] as const;

/** The part of _SCHEMA_APP_CONFIG (supervisor/apps/validate.py:454-557) our config.yaml uses. */
export const appConfigSchema = z.object({
  // :456-460, the required keys.
  name: z.string().min(1),
  // version_tag (supervisor/validate.py:113-121) takes any AwesomeVersion; the image's tag must be
  // exactly this (docs/apps/configuration.md), so a plain semantic version is required here.
  version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/),
  slug: z.string().regex(RE_SLUG_FIELD),
  description: z.string().min(1),
  arch: z.array(z.enum([...ARCH_ALL, ...ARCH_DEPRECATED])).min(1),
  // :462, vol.Url().
  url: z.url().optional(),
  // :463-466, supervisor/const.py:456-487 (AppBootConfig, AppStartup).
  startup: z.enum(["initialize", "system", "services", "application", "once"]).optional(),
  boot: z.enum(["auto", "manual", "manual_only"]).optional(),
  init: z.boolean().optional(),
  // :496-504 after the migration of string entries (:372-402).
  map: z
    .array(
      z.union([
        z.string().regex(RE_VOLUME),
        z.strictObject({
          type: z.enum([...MAPPING_TYPES, ...Object.keys(LEGACY_MAPPING_TYPES)] as [string, ...string[]]),
          read_only: z.boolean().optional(),
          path: z.string().min(1).optional(),
        }),
      ]),
    )
    .optional(),
  // :524.
  services: z.array(z.string().regex(RE_SERVICE)).optional(),
  // :526-529, supervisor/apps/const.py:9-13 (AppBackupMode).
  backup_exclude: z.array(z.string()).optional(),
  backup_pre: z.string().optional(),
  backup_post: z.string().optional(),
  backup: z.enum(["hot", "cold"]).optional(),
  // :530-534: the schema's leaves are RE_SCHEMA_ELEMENT (:146-158); ours has no nesting.
  options: z.record(z.string(), z.unknown()).optional(),
  schema: z.record(z.string(), z.string().regex(RE_SCHEMA_ELEMENT)).optional(),
  // :535, supervisor/validate.py:73-105.
  image: z
    .string()
    .superRefine((image, ctx) => {
      const problem = dockerImageProblem(image);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  // :550-552.
  timeout: z.number().int().min(10).max(300).optional(),
});

/** supervisor/apps/validate.py:589-605 (SCHEMA_APP_TRANSLATIONS). */
export const translationsSchema = z.object({
  configuration: z.record(
    z.string(),
    z.object({ name: z.string().min(1), description: z.string().nullable().optional() }),
  ),
});

/**
 * Whether an option's default fits its type, as AppOptions._single_validate checks a value
 * (supervisor/apps/options.py): for the types our schema uses.
 */
export function defaultProblem(type: string, value: unknown): string | undefined {
  const match = RE_SCHEMA_ELEMENT.exec(type);
  if (!match?.groups) return `unknown type ${type}`;
  const base = type.replace(/\?$/, "");
  if (base === "bool") return typeof value === "boolean" ? undefined : "not a boolean";
  if (base.startsWith("list(")) {
    const allowed = (match.groups.list ?? "").split("|");
    return allowed.includes(String(value)) ? undefined : `not one of ${allowed.join(", ")}`;
  }
  if (base.startsWith("match(")) {
    // vol.Match is re.match: anchored at the start only.
    return new RegExp(`^(?:${match.groups.match})`).test(String(value)) ? undefined : "does not match";
  }
  if (base === "url") return z.url().safeParse(value).success ? undefined : "not a URL";
  if (base.startsWith("int")) {
    if (!Number.isInteger(value)) return "not an integer";
    const min = match.groups.i_min;
    const max = match.groups.i_max;
    if (min !== undefined && (value as number) < Number(min)) return `below ${min}`;
    if (max !== undefined && (value as number) > Number(max)) return `above ${max}`;
    return undefined;
  }
  if (base.startsWith("str") || base.startsWith("password")) return typeof value === "string" ? undefined : "not text";
  return undefined;
}
