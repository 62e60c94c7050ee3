import { classifyAddress, deniedAddress } from '../../shared/domain/webhooks/addresses';
import { checkResolvedAddresses, checkWebhookUrl } from '../../shared/domain/webhooks/url-rules';

type Category = ReturnType<typeof classifyAddress> extends infer D ? (D extends { category: infer C } ? C : never) : never;

/**
 * Every deny range, with its first and last address inside and the addresses just outside it
 * (and what those are: public, or the neighbouring range). Written out by hand from the IANA
 * special-purpose registries, so the table checks the code rather than repeats it.
 */
const RANGES: Array<{ range: string; category: Category; inside: string[]; outside: Array<[string, Category | 'public']> }> = [
  { range: '169.254.169.254/32', category: 'metadata', inside: ['169.254.169.254'], outside: [['169.254.169.253', 'link_local'], ['169.254.169.255', 'link_local']] },
  { range: '0.0.0.0/8', category: 'unspecified', inside: ['0.0.0.0', '0.255.255.255'], outside: [['1.0.0.0', 'public']] },
  { range: '10.0.0.0/8', category: 'private', inside: ['10.0.0.0', '10.255.255.255'], outside: [['9.255.255.255', 'public'], ['11.0.0.0', 'public']] },
  { range: '100.64.0.0/10', category: 'shared', inside: ['100.64.0.0', '100.127.255.255'], outside: [['100.63.255.255', 'public'], ['100.128.0.0', 'public']] },
  { range: '127.0.0.0/8', category: 'loopback', inside: ['127.0.0.0', '127.255.255.255'], outside: [['126.255.255.255', 'public'], ['128.0.0.0', 'public']] },
  { range: '169.254.0.0/16', category: 'link_local', inside: ['169.254.0.0', '169.254.255.255'], outside: [['169.253.255.255', 'public'], ['169.255.0.0', 'public']] },
  { range: '172.16.0.0/12', category: 'private', inside: ['172.16.0.0', '172.31.255.255'], outside: [['172.15.255.255', 'public'], ['172.32.0.0', 'public']] },
  { range: '192.0.0.0/24', category: 'reserved', inside: ['192.0.0.0', '192.0.0.255'], outside: [['191.255.255.255', 'public'], ['192.0.1.0', 'public']] },
  { range: '192.0.2.0/24', category: 'reserved', inside: ['192.0.2.0', '192.0.2.255'], outside: [['192.0.1.255', 'public'], ['192.0.3.0', 'public']] },
  { range: '192.88.99.0/24', category: 'reserved', inside: ['192.88.99.0', '192.88.99.255'], outside: [['192.88.98.255', 'public'], ['192.88.100.0', 'public']] },
  { range: '192.168.0.0/16', category: 'private', inside: ['192.168.0.0', '192.168.255.255'], outside: [['192.167.255.255', 'public'], ['192.169.0.0', 'public']] },
  { range: '198.18.0.0/15', category: 'reserved', inside: ['198.18.0.0', '198.19.255.255'], outside: [['198.17.255.255', 'public'], ['198.20.0.0', 'public']] },
  { range: '198.51.100.0/24', category: 'reserved', inside: ['198.51.100.0', '198.51.100.255'], outside: [['198.51.99.255', 'public'], ['198.51.101.0', 'public']] },
  { range: '203.0.113.0/24', category: 'reserved', inside: ['203.0.113.0', '203.0.113.255'], outside: [['203.0.112.255', 'public'], ['203.0.114.0', 'public']] },
  { range: '224.0.0.0/4', category: 'multicast', inside: ['224.0.0.0', '239.255.255.255'], outside: [['223.255.255.255', 'public'], ['240.0.0.0', 'reserved']] },
  { range: '240.0.0.0/4', category: 'reserved', inside: ['240.0.0.0', '255.255.255.255'], outside: [['239.255.255.255', 'multicast']] },
  { range: '::/128', category: 'unspecified', inside: ['::', '0:0:0:0:0:0:0:0'], outside: [['::1', 'loopback']] },
  { range: '::1/128', category: 'loopback', inside: ['::1', '0:0:0:0:0:0:0:1'], outside: [['::2', 'unspecified'], ['::1:0:0:1', 'public']] },
  { range: 'fd00:ec2::254/128', category: 'metadata', inside: ['fd00:ec2::254'], outside: [['fd00:ec2::253', 'private'], ['fd00:ec2::255', 'private']] },
  { range: '64:ff9b:1::/48', category: 'private', inside: ['64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'], outside: [['64:ff9b:0:ffff:ffff:ffff:ffff:ffff', 'public'], ['64:ff9b:2::', 'public']] },
  { range: '100::/64', category: 'reserved', inside: ['100::', '100::ffff:ffff:ffff:ffff'], outside: [['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'], ['100:0:0:1::', 'public']] },
  { range: '2001::/23', category: 'reserved', inside: ['2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff', '2001:2::1', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: [['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'], ['2001:200::', 'public']] },
  { range: '2001:db8::/32', category: 'reserved', inside: ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'], outside: [['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', 'public'], ['2001:db9::', 'public']] },
  { range: 'fc00::/7', category: 'private', inside: ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: [['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'], ['fe00::', 'public']] },
  { range: 'fe80::/10', category: 'link_local', inside: ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::1%eth0'], outside: [['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'public'], ['fec0::', 'private']] },
  { range: 'fec0::/10', category: 'private', inside: ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: [['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link_local'], ['ff00::', 'multicast']] },
  { range: 'ff00::/8', category: 'multicast', inside: ['ff00::', 'ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'], outside: [['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private']] },
];

/** IPv6 forms that carry an IPv4 address: judged by that address; just outside the form, by the IPv6 rules. */
const EMBEDDINGS: Array<{ form: string; inside: Array<[string, Category | 'public']>; outside: Array<[string, Category | 'public']> }> = [
  { form: 'IPv4-mapped ::ffff:0:0/96', inside: [['::ffff:10.0.0.1', 'private'], ['::ffff:7f00:1', 'loopback'], ['[::ffff:169.254.169.254]', 'metadata'], ['::ffff:8.8.8.8', 'public']], outside: [['::fffe:a00:1', 'public']] },
  { form: 'IPv4-translated ::ffff:0:0:0/96', inside: [['::ffff:0:192.168.0.1', 'private'], ['::ffff:0:808:808', 'public']], outside: [['::fffe:0:a00:1', 'public']] },
  { form: 'IPv4-compatible ::/96', inside: [['::10.0.0.1', 'private'], ['::a9fe:a9fe', 'metadata'], ['::808:808', 'public']], outside: [['::1:0:a00:1', 'public']] },
  { form: 'NAT64 64:ff9b::/96', inside: [['64:ff9b::10.1.2.3', 'private'], ['64:ff9b::7f00:1', 'loopback'], ['64:ff9b::808:808', 'public']], outside: [['64:ff9b::1:a00:1', 'public']] },
  { form: '6to4 2002::/16', inside: [['2002:a00:1::', 'private'], ['2002:a9fe:a9fe::1', 'metadata'], ['2002:808:808::1', 'public']], outside: [['2001:ffff:a00:1::', 'public'], ['2003:a00:1::', 'public']] },
];

const categoryOf = (address: string) => classifyAddress(address)?.category ?? 'public';

describe('address deny list (SSRF)', () => {
  describe.each(RANGES)('$range', ({ category, inside, outside }) => {
    it.each(inside)(`%s inside is ${category}`, (address) => {
      expect(categoryOf(address)).toBe(category);
    });
    it.each(outside)('%s just outside is %s', (address, expected) => {
      expect(categoryOf(address)).toBe(expected);
    });
  });

  describe.each(EMBEDDINGS)('$form', ({ inside, outside }) => {
    it.each(inside)('%s embeds an address that is %s', (address, expected) => {
      expect(categoryOf(address)).toBe(expected);
    });
    it.each(outside)('%s just outside is %s', (address, expected) => {
      expect(categoryOf(address)).toBe(expected);
    });
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111'])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it('denies what is not a plain address at all', () => {
    for (const text of ['', 'example.com', '1.2.3', '256.1.1.1', '127.1', '0x7f.0.0.1', '1::2::3', '12345::1', 'g::1', '1:2:3:4:5:6:7:8:9']) {
      expect(classifyAddress(text)).toMatchObject({ category: 'reserved', reason: expect.stringMatching(/not an IP address/) });
    }
  });

  it('allows loopback only in local mode, and nothing else private there', () => {
    expect(deniedAddress('127.0.0.1', 'local')).toBeUndefined();
    expect(deniedAddress('::1', 'local')).toBeUndefined();
    expect(deniedAddress('127.0.0.1', 'aws')?.category).toBe('loopback');
    expect(deniedAddress('10.0.0.1', 'local')?.category).toBe('private');
    expect(deniedAddress('169.254.169.254', 'local')?.category).toBe('metadata');
  });
});

describe('webhook URL rules at creation (no DNS)', () => {
  const refused = (url: string, mode: 'aws' | 'local' = 'aws') => {
    const verdict = checkWebhookUrl(url, mode);
    return verdict.ok ? undefined : verdict.reason;
  };

  it('accepts a public https URL in both modes', () => {
    expect(refused('https://hooks.example.com/va?x=1')).toBeUndefined();
    expect(refused('https://hooks.example.com:443/va')).toBeUndefined();
    expect(refused('https://93.184.216.34/hook')).toBeUndefined();
  });

  it.each([
    'http://hooks.example.com/x',
    'ftp://hooks.example.com/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.8/hook',
    'https://127.0.0.1/hook',
    'https://127.1/hook',
    'https://2130706433/hook',
    'https://0x7f000001/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00:ec2::254]/hook',
    'https://100.64.1.1/hook',
    'https://0.0.0.0/hook',
    'https://localhost/hook',
    'https://api.localhost/hook',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://instance-data/hook',
    'https://printer.local/hook',
    'https://intranet/hook',
    'https://user:pass@hooks.example.com/x',
    'not a url',
  ])('refuses %s in AWS mode', (url) => {
    expect(refused(url)).toBeDefined();
  });

  it.each([
    ['https://hooks.example.com:8443/va', 'aws'],
    ['https://hooks.example.com:8443/va', 'local'],
    ['https://hooks.example.com:80/va', 'aws'],
    ['https://hooks.example.com:22/', 'aws'],
    ['https://93.184.216.34:6379/', 'aws'],
    ['http://hooks.example.com:443/', 'aws'],
  ] as const)('refuses %s in %s mode: https on port 443 only', (url, mode) => {
    expect(refused(url, mode)).toBeDefined();
  });

  it('allows loopback, and plain http only to loopback, in local mode', () => {
    expect(refused('https://127.0.0.1:8443/hook', 'local')).toBeUndefined();
    expect(refused('https://127.0.0.1:8443/hook', 'aws')).toBeDefined();
    expect(refused('http://127.0.0.1:8080/hook', 'local')).toBeUndefined();
    expect(refused('http://[::1]:8080/hook', 'local')).toBeUndefined();
    expect(refused('http://localhost:8080/hook', 'local')).toBeUndefined();
    expect(refused('http://hooks.example.com/hook', 'local')).toMatch(/https/);
    expect(refused('http://10.0.0.1/hook', 'local')).toBeDefined();
    expect(refused('https://169.254.169.254/', 'local')).toMatch(/metadata/);
  });
});

describe('resolved addresses at send', () => {
  const url = new URL('https://hooks.example.com/x');

  it('refuses a name that resolves to a private address, even among public ones', () => {
    expect(checkResolvedAddresses(url, ['93.184.216.34'], 'aws')).toBeUndefined();
    expect(checkResolvedAddresses(url, ['10.1.2.3'], 'aws')).toMatch(/private/);
    expect(checkResolvedAddresses(url, ['93.184.216.34', '127.0.0.1'], 'aws')).toMatch(/loopback/);
    expect(checkResolvedAddresses(url, ['::ffff:169.254.169.254'], 'aws')).toMatch(/metadata/);
    expect(checkResolvedAddresses(url, [], 'aws')).toMatch(/no address/);
  });

  it('keeps plain http on loopback in local mode', () => {
    const local = new URL('http://localhost:9000/x');
    expect(checkResolvedAddresses(local, ['127.0.0.1', '::1'], 'local')).toBeUndefined();
    expect(checkResolvedAddresses(local, ['93.184.216.34'], 'local')).toMatch(/not loopback/);
  });
});
