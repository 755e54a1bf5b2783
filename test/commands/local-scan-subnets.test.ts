import type { NetworkInterfaceInfo } from "node:os";
import { describe, expect, it } from "vitest";
import { hostsOf, ownSubnets, subnetSchema, subnetText } from "../../src/commands/local-scan-subnets.js";

/** What `local scan` tries, worked out without touching the network. */
describe("local scan's subnets", () => {
  const parse = (text: string) => subnetSchema.parse(text);

  it("takes a CIDR of /16 or narrower, dropping host bits", () => {
    expect(subnetText(parse("192.168.1.7/24"))).toBe("192.168.1.0/24");
    expect(subnetText(parse(" 10.20.0.0/16 "))).toBe("10.20.0.0/16");
    expect(subnetText(parse("127.83.0.5/32"))).toBe("127.83.0.5/32");
  });

  it("refuses what is not a CIDR, and a subnet wider than /16, saying what to give", () => {
    for (const bad of ["abc", "192.168.1.0", "192.168.1.256/24", "192.168.1.0/33", "1.2.3.4/24/1", "::1/128"]) {
      const result = subnetSchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toContain("give one as ADDRESS/PREFIX, e.g. 192.168.1.0/24");
    }
    expect(subnetSchema.safeParse("10.0.0.0/8").error?.issues[0]?.message).toBe(
      "10.0.0.0/8 holds 16,777,216 addresses, too many to scan: give a /16 or narrower, e.g. the /24 the dongle is on (10.0.0.0/24)",
    );
    expect(subnetSchema.safeParse("172.16.5.9/15").success).toBe(false);
  });

  it("tries every address but the network's and the broadcast's (a /31 and a /32 have none)", () => {
    expect(hostsOf(parse("127.83.0.0/29"))).toEqual([
      "127.83.0.1",
      "127.83.0.2",
      "127.83.0.3",
      "127.83.0.4",
      "127.83.0.5",
      "127.83.0.6",
    ]);
    expect(hostsOf(parse("127.83.0.8/31"))).toEqual(["127.83.0.8", "127.83.0.9"]);
    expect(hostsOf(parse("127.83.0.9/32"))).toEqual(["127.83.0.9"]);
    expect(hostsOf(parse("192.168.0.0/16"))).toHaveLength(65_534);
  });

  it("without --subnet: the machine's LAN interfaces, each at most its /24, each subnet once, loopback and IPv6 left out", () => {
    const info = (address: string, netmask: string, internal = false): NetworkInterfaceInfo => ({
      address,
      netmask,
      family: "IPv4",
      mac: "00:00:00:00:00:00",
      internal,
      cidr: null,
    });
    const subnets = ownSubnets({
      lo: [info("127.0.0.1", "255.0.0.0", true)],
      eth0: [
        info("192.168.1.23", "255.255.0.0"),
        { ...info("fe80::1", "ffff:ffff:ffff:ffff::"), family: "IPv6", scopeid: 2 },
      ],
      wlan0: [info("192.168.1.40", "255.255.255.0"), info("10.1.2.3", "255.255.255.240")],
    });
    expect(subnets.map(({ subnet, interfaces }) => [subnetText(subnet), interfaces])).toEqual([
      ["192.168.1.0/24", ["eth0", "wlan0"]],
      ["10.1.2.0/28", ["wlan0"]],
    ]);
  });
});
