import { classifyAddress, deniedAddress, parseIpv6 } from '../../shared/domain/webhooks/addresses';
import { checkResolvedAddresses, checkWebhookUrl } from '../../shared/domain/webhooks/url-rules';

describe('address deny list (SSRF)', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['169.254.10.20', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.254', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fc00::1', 'private'],
    ['fdff:ffff::1', 'private'],
    ['255.255.255.255', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a00:1', 'private'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['::ffff:0:192.168.0.1', 'private'],
    ['64:ff9b::10.1.2.3', 'private'],
    ['2002:a9fe:a9fe::1', 'metadata'],
    ['::10.0.0.1', 'private'],
  ])('%s is %s', (address, category) => {
    expect(classifyAddress(address)?.category).toBe(category);
  });

  it.each(['8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it('denies what is not an address at all', () => {
    for (const text of ['', 'example.com', '1.2.3', '256.1.1.1', '1::2::3', '12345::1', 'g::1']) {
      expect(classifyAddress(text)).toBeDefined();
    }
  });

  it('parses IPv6 forms to 16 bytes', () => {
    expect(parseIpv6('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(parseIpv6('::ffff:1.2.3.4')!.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
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
    expect(refused('https://hooks.example.com:8443/va', 'local')).toBeUndefined();
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

  it('allows loopback, and plain http only to loopback, in local mode', () => {
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
