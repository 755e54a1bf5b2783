import type { NetworkInterfaceInfo } from "node:os";
import { z } from "zod";

/** A /16 is 65,534 addresses, minutes of connects: anything wider is refused. */
export const WIDEST_PREFIX = 16;
/** The machine's own subnets are scanned no wider than this: a home LAN is a /24, and a dongle sits on it. */
const OWN_SUBNET_PREFIX = 24;

/** An IPv4 subnet: its network address as an unsigned 32-bit number, and its prefix length. */
export interface Subnet {
  readonly network: number;
  readonly prefix: number;
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The address as an unsigned 32-bit number; undefined when it is not a dotted IPv4 address. */
export function ipNumber(text: string): number | undefined {
  const octets = DOTTED.exec(text)?.slice(1).map(Number);
  if (!octets || octets.some((octet) => octet > 255)) return undefined;
  return octets.reduce((sum, octet) => sum * 256 + octet, 0);
}

export function ipText(value: number): string {
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join(".");
}

const mask = (prefix: number): number => (prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0);

const subnetOf = (address: number, prefix: number): Subnet => ({ network: (address & mask(prefix)) >>> 0, prefix });

export function subnetText(subnet: Subnet): string {
  return `${ipText(subnet.network)}/${subnet.prefix}`;
}

/** The addresses to try: all but the network and broadcast addresses (a /31 and a /32 have none of those). */
export function hostsOf(subnet: Subnet): string[] {
  const size = 2 ** (32 - subnet.prefix);
  const [first, last] = size > 2 ? [1, size - 2] : [0, size - 1];
  return Array.from({ length: last - first + 1 }, (_, index) => ipText(subnet.network + first + index));
}

/** `--subnet`: an IPv4 CIDR of /16 or narrower; host bits are dropped (192.168.1.7/24 is 192.168.1.0/24). */
export const subnetSchema = z
  .string()
  .trim()
  .transform((text, ctx): Subnet => {
    const [address, prefixText, ...rest] = text.split("/");
    const value = ipNumber(address ?? "");
    const prefix = /^\d{1,2}$/.test(prefixText ?? "") ? Number(prefixText) : Number.NaN;
    if (value === undefined || rest.length > 0 || !(prefix <= 32)) {
      ctx.addIssue({
        code: "custom",
        message: `"${text}" is not an IPv4 subnet: give one as ADDRESS/PREFIX, e.g. 192.168.1.0/24`,
      });
      return z.NEVER;
    }
    if (prefix < WIDEST_PREFIX) {
      ctx.addIssue({
        code: "custom",
        message: `${text} holds ${(2 ** (32 - prefix)).toLocaleString("en")} addresses, too many to scan: give a /${WIDEST_PREFIX} or narrower, e.g. the /24 the dongle is on (${subnetText(subnetOf(value, OWN_SUBNET_PREFIX))})`,
      });
      return z.NEVER;
    }
    return subnetOf(value, prefix);
  });

/** One of the machine's own subnets, with the interfaces it was found on. */
export interface OwnSubnet {
  readonly subnet: Subnet;
  readonly interfaces: readonly string[];
}

/**
 * The subnets of the machine's non-internal IPv4 interfaces (`os.networkInterfaces()`), each
 * narrowed to the /24 around the machine's address when it is wider, and each listed once.
 */
export function ownSubnets(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): OwnSubnet[] {
  const found = new Map<string, { subnet: Subnet; interfaces: string[] }>();
  for (const [name, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) {
      if (info.family !== "IPv4" || info.internal) continue;
      const address = ipNumber(info.address);
      const netmask = ipNumber(info.netmask);
      if (address === undefined || netmask === undefined) continue;
      // A netmask's prefix is its leading ones: the leading zeros of its complement.
      const prefix = Math.max(OWN_SUBNET_PREFIX, Math.clz32(~netmask));
      const subnet = subnetOf(address, prefix);
      const key = subnetText(subnet);
      const entry = found.get(key) ?? { subnet, interfaces: [] };
      if (!entry.interfaces.includes(name)) entry.interfaces.push(name);
      found.set(key, entry);
    }
  }
  return [...found.values()];
}
