/**
 * The addresses a webhook may never reach (SSRF): private, loopback, link-local, metadata,
 * shared (CGNAT), multicast and reserved ranges, in IPv4 and IPv6, including IPv6 forms that
 * embed an IPv4 address (mapped, compatible, NAT64, 6to4). Pure parsing, no resolver.
 */
export type AppMode = 'aws' | 'local';

export type AddressCategory = 'loopback' | 'private' | 'link_local' | 'metadata' | 'shared' | 'multicast' | 'reserved' | 'unspecified';

interface Range {
  network: number[];
  prefix: number;
  category: AddressCategory;
  label: string;
}

const v4 = (cidr: string, category: AddressCategory, label: string): Range => {
  const [address, prefix] = cidr.split('/');
  return { network: parseIpv4(address!)!, prefix: Number(prefix), category, label };
};
const v6 = (cidr: string, category: AddressCategory, label: string): Range => {
  const [address, prefix] = cidr.split('/');
  return { network: parseIpv6(address!)!, prefix: Number(prefix), category, label };
};

// Most specific first: the metadata address lies inside link-local.
const IPV4_DENIED: Range[] = [
  v4('169.254.169.254/32', 'metadata', 'the cloud instance metadata address'),
  v4('0.0.0.0/8', 'unspecified', '"this network" (0.0.0.0/8)'),
  v4('10.0.0.0/8', 'private', 'a private network (10.0.0.0/8)'),
  v4('100.64.0.0/10', 'shared', 'shared address space / carrier-grade NAT (100.64.0.0/10)'),
  v4('127.0.0.0/8', 'loopback', 'loopback (127.0.0.0/8)'),
  v4('169.254.0.0/16', 'link_local', 'link-local (169.254.0.0/16)'),
  v4('172.16.0.0/12', 'private', 'a private network (172.16.0.0/12)'),
  v4('192.0.0.0/24', 'reserved', 'IETF protocol assignments (192.0.0.0/24)'),
  v4('192.0.2.0/24', 'reserved', 'documentation (192.0.2.0/24)'),
  v4('192.88.99.0/24', 'reserved', '6to4 relay anycast (192.88.99.0/24)'),
  v4('192.168.0.0/16', 'private', 'a private network (192.168.0.0/16)'),
  v4('198.18.0.0/15', 'reserved', 'benchmarking (198.18.0.0/15)'),
  v4('198.51.100.0/24', 'reserved', 'documentation (198.51.100.0/24)'),
  v4('203.0.113.0/24', 'reserved', 'documentation (203.0.113.0/24)'),
  v4('224.0.0.0/4', 'multicast', 'multicast (224.0.0.0/4)'),
  v4('240.0.0.0/4', 'reserved', 'reserved or broadcast (240.0.0.0/4)'),
];

const IPV6_DENIED: Range[] = [
  v6('::/128', 'unspecified', 'the unspecified address (::)'),
  v6('::1/128', 'loopback', 'loopback (::1)'),
  v6('fd00:ec2::254/128', 'metadata', 'the cloud instance metadata address (fd00:ec2::254)'),
  v6('64:ff9b:1::/48', 'private', 'local-use NAT64 (64:ff9b:1::/48)'),
  v6('100::/64', 'reserved', 'discard-only (100::/64)'),
  v6('2001::/23', 'reserved', 'IETF protocol assignments, Teredo included (2001::/23)'),
  v6('2001:db8::/32', 'reserved', 'documentation (2001:db8::/32)'),
  v6('fc00::/7', 'private', 'unique local (fc00::/7)'),
  v6('fe80::/10', 'link_local', 'link-local (fe80::/10)'),
  v6('fec0::/10', 'private', 'site-local (fec0::/10)'),
  v6('ff00::/8', 'multicast', 'multicast (ff00::/8)'),
];

/** IPv6 ranges whose last (or, for 6to4, second to fifth) bytes carry an IPv4 address. */
const IPV4_EMBEDDING: { range: Range; offset: number }[] = [
  { range: v6('::ffff:0:0/96', 'reserved', 'IPv4-mapped'), offset: 12 },
  { range: v6('::ffff:0:0:0/96', 'reserved', 'IPv4-translated'), offset: 12 },
  { range: v6('::/96', 'reserved', 'IPv4-compatible'), offset: 12 },
  { range: v6('64:ff9b::/96', 'reserved', 'NAT64'), offset: 12 },
  { range: v6('2002::/16', 'reserved', '6to4'), offset: 2 },
];

export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** Accepts brackets, a zone (`fe80::1%eth0`) and a dotted IPv4 tail (`::ffff:10.0.0.1`). */
export function parseIpv6(text: string): number[] | undefined {
  let rest = text.replace(/^\[(.*)\]$/, '$1').split('%')[0]!.toLowerCase();
  const tail = rest.slice(rest.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    const embedded = parseIpv4(tail);
    if (!embedded) return undefined;
    rest = `${rest.slice(0, rest.length - tail.length)}${((embedded[0]! << 8) | embedded[1]!).toString(16)}:${((embedded[2]! << 8) | embedded[3]!).toString(16)}`;
  }
  const halves = rest.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]!);
  const back = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - back.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...back];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return all.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

function inRange(bytes: number[], range: Range): boolean {
  if (bytes.length !== range.network.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (range.network[i]! & mask)) return false;
  }
  return true;
}

export interface DeniedAddress {
  category: AddressCategory;
  reason: string;
}

/** Why an address is off limits, or undefined when a webhook may reach it. Unparseable text is denied. */
export function classifyAddress(address: string): DeniedAddress | undefined {
  const ipv4 = parseIpv4(address);
  if (ipv4) {
    const hit = IPV4_DENIED.find((range) => inRange(ipv4, range));
    return hit && { category: hit.category, reason: `${address} is ${hit.label}` };
  }
  const ipv6 = parseIpv6(address);
  if (!ipv6) return { category: 'reserved', reason: `${address} is not an IP address` };
  const hit = IPV6_DENIED.find((range) => inRange(ipv6, range));
  if (hit) return { category: hit.category, reason: `${address} is ${hit.label}` };
  for (const { range, offset } of IPV4_EMBEDDING) {
    if (!inRange(ipv6, range)) continue;
    const embedded = ipv6.slice(offset, offset + 4).join('.');
    const inner = classifyAddress(embedded);
    return inner && { category: inner.category, reason: `${address} embeds ${inner.reason} (${range.label})` };
  }
  return undefined;
}

/** Local mode lets webhooks reach loopback (a receiver on 127.0.0.1); nothing else private, anywhere. */
export function deniedAddress(address: string, mode: AppMode): DeniedAddress | undefined {
  const denied = classifyAddress(address);
  if (denied?.category === 'loopback' && mode === 'local') return undefined;
  return denied;
}

export function isIpLiteral(host: string): boolean {
  return parseIpv4(host) !== undefined || (host.includes(':') && parseIpv6(host) !== undefined);
}
