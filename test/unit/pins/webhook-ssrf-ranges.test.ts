import { checkResolvedAddresses, checkWebhookUrl } from '../../../shared/domain/webhooks/url-rules';

/**
 * The webhook SSRF deny table (DESIGN §3: never private, loopback, link-local or metadata
 * addresses in AWS mode), written from the IANA special-purpose registries (RFC 6890 and the RFCs
 * named per row), not from the product's list. Each row is probed with addresses at its edges
 * (inside) and with the nearest addresses just outside it that are ordinary global unicast; a row
 * whose neighbours are themselves special has no outside probe. Judged through the public checks:
 * the URL at creation (literal host) and every address a name resolves to at send time.
 */
interface Row {
  range: string;
  source: string;
  inside: string[];
  outside: string[];
}

const IPV4: Row[] = [
  { range: '0.0.0.0/8', source: 'RFC 791 "this network"', inside: ['0.0.0.0', '0.255.255.255'], outside: ['1.0.0.0'] },
  { range: '10.0.0.0/8', source: 'RFC 1918', inside: ['10.0.0.0', '10.255.255.255'], outside: ['9.255.255.255', '11.0.0.0'] },
  { range: '100.64.0.0/10', source: 'RFC 6598 shared address space', inside: ['100.64.0.0', '100.127.255.255'], outside: ['100.63.255.255', '100.128.0.0'] },
  { range: '127.0.0.0/8', source: 'RFC 1122 loopback', inside: ['127.0.0.1', '127.255.255.255'], outside: ['126.255.255.255', '128.0.0.0'] },
  { range: '169.254.0.0/16', source: 'RFC 3927 link-local', inside: ['169.254.0.0', '169.254.255.255'], outside: ['169.253.255.255', '169.255.0.0'] },
  { range: '172.16.0.0/12', source: 'RFC 1918', inside: ['172.16.0.0', '172.31.255.255'], outside: ['172.15.255.255', '172.32.0.0'] },
  { range: '192.0.0.0/24', source: 'RFC 6890 IETF protocol assignments', inside: ['192.0.0.0', '192.0.0.255'], outside: ['191.255.255.255', '192.0.1.0'] },
  { range: '192.0.2.0/24', source: 'RFC 5737 TEST-NET-1', inside: ['192.0.2.0', '192.0.2.255'], outside: ['192.0.3.0'] },
  { range: '192.88.99.0/24', source: 'RFC 7526 6to4 relay anycast', inside: ['192.88.99.0', '192.88.99.255'], outside: ['192.88.98.255', '192.88.100.0'] },
  { range: '192.168.0.0/16', source: 'RFC 1918', inside: ['192.168.0.0', '192.168.255.255'], outside: ['192.167.255.255', '192.169.0.0'] },
  { range: '198.18.0.0/15', source: 'RFC 2544 benchmarking', inside: ['198.18.0.0', '198.19.255.255'], outside: ['198.17.255.255', '198.20.0.0'] },
  { range: '198.51.100.0/24', source: 'RFC 5737 TEST-NET-2', inside: ['198.51.100.0', '198.51.100.255'], outside: ['198.51.99.255', '198.51.101.0'] },
  { range: '203.0.113.0/24', source: 'RFC 5737 TEST-NET-3', inside: ['203.0.113.0', '203.0.113.255'], outside: ['203.0.112.255', '203.0.114.0'] },
  { range: '224.0.0.0/4', source: 'RFC 5771 multicast', inside: ['224.0.0.0', '239.255.255.255'], outside: ['223.255.255.255'] },
  { range: '240.0.0.0/4', source: 'RFC 1112 reserved', inside: ['240.0.0.0', '255.255.255.254'], outside: [] },
  { range: '255.255.255.255/32', source: 'RFC 919 limited broadcast', inside: ['255.255.255.255'], outside: [] },
  { range: '169.254.169.254/32', source: 'cloud instance metadata (AWS IMDS)', inside: ['169.254.169.254'], outside: [] },
];

const IPV6: Row[] = [
  { range: '::/128', source: 'RFC 4291 unspecified', inside: ['::'], outside: [] },
  { range: '::1/128', source: 'RFC 4291 loopback', inside: ['::1'], outside: [] },
  {
    range: '::ffff:0:0/96',
    source: 'RFC 4291 IPv4-mapped (judged by the IPv4 address it carries)',
    inside: ['::ffff:10.0.0.1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:192.168.1.1', '::ffff:100.64.0.1', '::ffff:0.0.0.0'],
    outside: [],
  },
  { range: '64:ff9b::/96', source: 'RFC 6052 NAT64 well-known prefix (judged by the IPv4 address it carries)', inside: ['64:ff9b::10.0.0.1', '64:ff9b::127.0.0.1', '64:ff9b::169.254.169.254'], outside: [] },
  { range: '64:ff9b:1::/48', source: 'RFC 8215 local-use NAT64', inside: ['64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'], outside: ['64:ff9b:2::1'] },
  { range: '100::/64', source: 'RFC 6666 discard-only', inside: ['100::', '100::ffff:ffff:ffff:ffff'], outside: ['100:0:0:1::1'] },
  { range: '2001::/23', source: 'RFC 2928 IETF protocol assignments (Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID …)', inside: ['2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff', '2001:2::1', '2001:10::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2001:200::1'] },
  { range: '2001:db8::/32', source: 'RFC 3849 documentation', inside: ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], outside: ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::'] },
  { range: '2002::/16', source: 'RFC 3056 6to4 (judged by the IPv4 address it carries)', inside: ['2002:a00:1::1', '2002:7f00:1::1', '2002:a9fe:a9fe::1', '2002:c0a8:101::1'], outside: ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '2003::1'] },
  { range: 'fc00::/7', source: 'RFC 4193 unique local', inside: ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'] },
  { range: 'fe80::/10', source: 'RFC 4291 link-local', inside: ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::1%eth0'], outside: [] },
  { range: 'fec0::/10', source: 'RFC 3879 site-local (deprecated)', inside: ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: [] },
  { range: 'ff00::/8', source: 'RFC 4291 multicast', inside: ['ff00::', 'ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: [] },
  { range: 'fd00:ec2::254/128', source: 'cloud instance metadata (AWS IMDS over IPv6)', inside: ['fd00:ec2::254'], outside: [] },
];

const literalUrl = (address: string) => (address.includes(':') ? `https://[${address.replace('%', '%25')}]/hook` : `https://${address}/hook`);
const RECEIVER = new URL('https://hooks.example.com/hook');

const probes = (rows: Row[], side: 'inside' | 'outside') => rows.flatMap((row) => row[side].map((address) => [row.range, address, row.source] as const));

describe.each([['IPv4', IPV4], ['IPv6', IPV6]] as const)('pins: the %s SSRF deny table', (_family, rows) => {
  it.each(probes(rows, 'inside'))('%s: refuses %s (%s)', (_range, address) => {
    expect(checkResolvedAddresses(RECEIVER, [address], 'aws')).toEqual(expect.any(String));
    expect(checkResolvedAddresses(RECEIVER, ['93.184.215.14', address], 'aws')).toEqual(expect.any(String));
    // A URL naming the address itself is refused at creation, percent-encoded zone or not.
    if (!address.includes('%')) expect(checkWebhookUrl(literalUrl(address), 'aws')).toMatchObject({ ok: false });
  });

  const outside = probes(rows, 'outside');
  if (outside.length > 0) {
    it.each(outside)('%s: allows %s just outside it', (_range, address) => {
      expect(checkResolvedAddresses(RECEIVER, [address], 'aws')).toBeUndefined();
      expect(checkWebhookUrl(literalUrl(address), 'aws')).toMatchObject({ ok: true });
    });
  }
});

describe('pins: local mode opens loopback only', () => {
  const loopbackUrl = new URL('http://127.0.0.1:4000/hook');
  it.each(['127.0.0.1', '127.255.255.255', '::1', '::ffff:127.0.0.1'])('lets a local receiver on %s be reached', (address) => {
    expect(checkResolvedAddresses(loopbackUrl, [address], 'local')).toBeUndefined();
  });

  it.each([...probes(IPV4, 'inside'), ...probes(IPV6, 'inside')].filter(([range]) => !['127.0.0.0/8', '::1/128', '::ffff:0:0/96', '64:ff9b::/96', '2002::/16'].includes(range)))(
    '%s: still refuses %s',
    (_range, address) => {
      expect(checkResolvedAddresses(RECEIVER, [address], 'local')).toEqual(expect.any(String));
    },
  );

  it('refuses loopback in AWS mode', () => {
    expect(checkWebhookUrl('https://127.0.0.1/hook', 'aws')).toMatchObject({ ok: false });
    expect(checkResolvedAddresses(RECEIVER, ['127.0.0.1'], 'aws')).toEqual(expect.any(String));
  });
});
