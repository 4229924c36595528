import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** IPv4 ranges no fetch from a model should reach: this host, private networks, link-local, CGNAT, multicast. */
const BLOCKED_V4: readonly [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

function v4ToNumber(address: string): number {
  return address.split(".").reduce((total, part) => total * 256 + Number(part), 0);
}

function isBlockedV4(address: string): boolean {
  const value = v4ToNumber(address);
  return BLOCKED_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    return Math.floor(value / size) === Math.floor(v4ToNumber(base) / size);
  });
}

/** Expands "::"-shortened IPv6 into its eight 16-bit groups; an embedded IPv4 tail becomes two groups. */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0] ?? "";
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4Tail !== undefined) {
    const value = v4ToNumber(v4Tail);
    const high = Math.floor(value / 65536).toString(16);
    const low = (value % 65536).toString(16);
    text = `${text.slice(0, -v4Tail.length)}${high}:${low}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string): number[] =>
    part === "" ? [] : part.split(":").map((group) => parseInt(group, 16));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address in two 16-bit groups, as dotted quads. */
function v4FromGroups(high = 0, low = 0): string {
  const value = high * 65536 + low;
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

function isBlockedV6(address: string): boolean {
  const groups = v6Groups(address);
  const [first = 0] = groups;
  const allZeroBefore = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (allZeroBefore(7) && (groups[7] === 0 || groups[7] === 1)) return true; // :: and ::1
  // Forms that carry an IPv4 address reach (or are routed to) that IPv4 host, so judge it as one:
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4 2002:AABB:CCDD::.
  if (allZeroBefore(5) && (groups[5] === 0xffff || groups[5] === 0)) {
    return isBlockedV4(v4FromGroups(groups[6], groups[7]));
  }
  if (first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) {
    return isBlockedV4(v4FromGroups(groups[6], groups[7]));
  }
  if (first === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return true; // 64:ff9b:1::/48, local NAT64
  if (first === 0x2002) return isBlockedV4(v4FromGroups(groups[1], groups[2]));
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  return false;
}

/** Loopback, private, link-local, unique-local and other non-public addresses. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isBlockedV4(address);
  if (family === 6) return isBlockedV6(address);
  return true;
}

export class BlockedAddressError extends Error {}

/** Resolves a host name to every address it has, as dns.lookup with `all: true` does. */
export type HostLookup = (hostname: string) => Promise<ReadonlyArray<{ address: string }>>;

const systemLookup: HostLookup = (hostname) => lookup(hostname, { all: true, order: "verbatim" });

/**
 * Resolves `hostname` once and returns every address it has, throwing `BlockedAddressError` when
 * any is not public (checking only the first would let a name with one public and one private
 * record through). The caller must connect to one of these addresses, never resolve the name
 * again: a second answer could differ (DNS rebinding).
 */
export async function resolvePublicHost(
  hostname: string,
  resolve: HostLookup = systemLookup,
  allowPrivate = false,
): Promise<string[]> {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  const addresses = isIP(bare) !== 0 ? [{ address: bare }] : await resolve(bare);
  const blocked = allowPrivate ? undefined : addresses.find(({ address }) => isNonPublicAddress(address));
  if (blocked) {
    throw new BlockedAddressError(
      `Refusing to fetch ${hostname}: it resolves to ${blocked.address}, a loopback, private or link-local address ` +
        "(set MCPTERM_FETCH_ALLOW_PRIVATE=1 in this server's env to allow it).",
    );
  }
  return addresses.map(({ address }) => address);
}

/** Throws `BlockedAddressError` when `hostname` resolves to any address that is not public. */
export async function assertPublicHost(hostname: string, resolve: HostLookup = systemLookup): Promise<void> {
  await resolvePublicHost(hostname, resolve);
}
