import { describe, expect, it } from "vitest";
import { assertPublicHost, isNonPublicAddress } from "../../src/servers/fetch/address-guard.js";

describe("isNonPublicAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["0.0.0.0", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["224.0.0.1", true],
    ["255.255.255.255", true],
    ["8.8.8.8", false],
    ["93.184.216.34", false],
    ["::1", true],
    ["::", true],
    ["fe80::1", true],
    ["fe80::1%eth0", true],
    ["fc00::1", true],
    ["fd12:3456::1", true],
    ["ff02::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:8.8.8.8", false],
    ["::127.0.0.1", true],
    ["::7f00:1", true],
    ["::a00:1", true],
    ["::808:808", false],
    ["64:ff9b::7f00:1", true],
    ["64:ff9b::127.0.0.1", true],
    ["64:ff9b::c0a8:101", true],
    ["64:ff9b::808:808", false],
    ["64:ff9b:1::808:808", true],
    ["2002:7f00:1::", true],
    ["2002:a9fe:a9fe::1", true],
    ["2002:808:808::1", false],
    ["2606:4700:4700::1111", false],
    ["2001:db8::1", false],
    ["not an address", true],
  ])("%s -> %s", (address, blocked) => {
    expect(isNonPublicAddress(address)).toBe(blocked);
  });
});

describe("assertPublicHost", () => {
  it.each(["127.0.0.1", "[::1]", "localhost"])("refuses %s", async (host) => {
    await expect(assertPublicHost(host)).rejects.toThrow(
      /^Refusing to fetch .*a loopback, private or link-local address/,
    );
  });

  it("accepts a public address literal without a network lookup", async () => {
    await expect(assertPublicHost("8.8.8.8")).resolves.toBeUndefined();
  });
});
