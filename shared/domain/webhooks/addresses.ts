import type ipaddr from 'ipaddr.js';
import { onFirstUse } from '../../on-first-use';

/**
 * The addresses a webhook may never reach (SSRF): private, loopback, link-local, metadata,
 * shared (CGNAT), multicast and reserved ranges, in IPv4 and IPv6, including IPv6 forms that
 * embed an IPv4 address (mapped, translated, compatible, NAT64, 6to4). Parsing and prefix
 * matching are ipaddr.js's; this module only holds the policy. Pure, no resolver. ipaddr.js and
 * the ranges are loaded with the first address checked: most requests of the functions that check
 * one (a webhook or COG URL) check none.
 */
export type AppMode = 'aws' | 'local';

export type AddressCategory = 'loopback' | 'private' | 'link_local' | 'metadata' | 'shared' | 'multicast' | 'reserved' | 'unspecified';

interface Range<A extends ipaddr.IPv4 | ipaddr.IPv6> {
  cidr: string;
  network: [A, number];
  category: AddressCategory;
  label: string;
}

const ipaddrLibrary = onFirstUse(() => require('ipaddr.js') as typeof ipaddr);

const v4 = (cidr: string, category: AddressCategory, label: string): Range<ipaddr.IPv4> =>
  ({ cidr, network: ipaddrLibrary().IPv4.parseCIDR(cidr), category, label });
const v6 = (cidr: string, category: AddressCategory, label: string): Range<ipaddr.IPv6> =>
  ({ cidr, network: ipaddrLibrary().IPv6.parseCIDR(cidr), category, label });

// Most specific first: the metadata address lies inside link-local.
const IPV4_DENIED = onFirstUse((): readonly Range<ipaddr.IPv4>[] => [
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
]);

const IPV6_DENIED = onFirstUse((): readonly Range<ipaddr.IPv6>[] => [
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
]);

/** IPv6 ranges that carry an IPv4 address: its four bytes start at `offset`; that address is judged. */
const IPV4_EMBEDDING = onFirstUse((): readonly { range: Range<ipaddr.IPv6>; offset: number }[] => [
  { range: v6('::ffff:0:0/96', 'reserved', 'IPv4-mapped'), offset: 12 },
  { range: v6('::ffff:0:0:0/96', 'reserved', 'IPv4-translated'), offset: 12 },
  { range: v6('::/96', 'reserved', 'IPv4-compatible'), offset: 12 },
  { range: v6('64:ff9b::/96', 'reserved', 'NAT64'), offset: 12 },
  { range: v6('2002::/16', 'reserved', '6to4'), offset: 2 },
]);

/**
 * An IP literal as this API accepts one: dotted-quad IPv4 only (the URL parser has already turned
 * `0x7f.1` and friends into that form, and a resolver answers in it), or IPv6 with optional
 * brackets and zone. Anything else is not an address.
 */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const { IPv4, IPv6 } = ipaddrLibrary();
  if (IPv4.isValidFourPartDecimal(text)) return IPv4.parse(text);
  const bare = text.replace(/^\[(.*)\]$/, '$1');
  return bare.includes(':') && IPv6.isValid(bare) ? IPv6.parse(bare) : undefined;
}

export interface DeniedAddress {
  category: AddressCategory;
  reason: string;
}

/** Why an address is off limits, or undefined when a webhook may reach it. Unparseable text is denied. */
export function classifyAddress(address: string): DeniedAddress | undefined {
  const parsed = parseAddress(address);
  if (!parsed) return { category: 'reserved', reason: `${address} is not an IP address` };
  if (parsed.kind() === 'ipv4') {
    const hit = IPV4_DENIED().find((range) => (parsed as ipaddr.IPv4).match(range.network));
    return hit && { category: hit.category, reason: `${address} is ${hit.label}` };
  }
  const ipv6 = parsed as ipaddr.IPv6;
  const hit = IPV6_DENIED().find((range) => ipv6.match(range.network));
  if (hit) return { category: hit.category, reason: `${address} is ${hit.label}` };
  const embedding = IPV4_EMBEDDING().find(({ range }) => ipv6.match(range.network));
  if (!embedding) return undefined;
  const embedded = ipv6.toByteArray().slice(embedding.offset, embedding.offset + 4).join('.');
  const inner = classifyAddress(embedded);
  return inner && { category: inner.category, reason: `${address} embeds ${inner.reason} (${embedding.range.label})` };
}

/** Local mode lets webhooks reach loopback (a receiver on 127.0.0.1); nothing else private, anywhere. */
export function deniedAddress(address: string, mode: AppMode): DeniedAddress | undefined {
  const denied = classifyAddress(address);
  if (denied?.category === 'loopback' && mode === 'local') return undefined;
  return denied;
}

export function isIpLiteral(host: string): boolean {
  return parseAddress(host) !== undefined;
}
