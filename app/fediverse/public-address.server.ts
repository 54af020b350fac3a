import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * Only public peers (decision 053): Fedify's document loader already refuses to fetch from a
 * loopback or private address unless `allowPrivateAddress`; deliveries go through plain
 * `fetch`, so a remote actor could name an inbox on our own network. This guard answers
 * whether a URL's host is (or resolves only to) public addresses.
 */
const PRIVATE = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  // (IPv4-mapped addresses, ::ffff:0:0/96, are checked as the IPv4 address they map: a rule
  // for them here would also match every IPv4 address.)
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(address, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!family) return false;
  if (family === 'ipv6' && /^::ffff:/i.test(address)) {
    const v4 = address.slice(7);
    if (net.isIPv4(v4)) return !PRIVATE.check(v4, 'ipv4');
  }
  return !PRIVATE.check(address, family);
}

/** True when `url` is http(s) and every address its host names is public. */
export async function isPublicUrl(url: string | URL): Promise<boolean> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) return isPublicAddress(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  try {
    const addresses = await dns.lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((a) => isPublicAddress(a.address));
  } catch {
    return false;
  }
}
