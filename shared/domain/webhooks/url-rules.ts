import { classifyAddress, deniedAddress, isIpLiteral, type AppMode } from './addresses';

/**
 * Webhook URL rules (DESIGN §3): `https` on port 443; plain `http`, on any port, and https on
 * any port only to loopback in local mode. At creation only the literal URL is judged — scheme,
 * port, host literal, reserved names — so creation never depends on DNS; every send resolves the
 * name and judges each address again (`checkResolvedAddresses`).
 */
export type UrlVerdict = { ok: true; url: URL; host: string } | { ok: false; reason: string };

// Names that mean "this machine" or a cloud metadata service, or never resolve publicly.
const RESERVED_NAMES = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback', 'metadata', 'instance-data', 'broadcasthost']);
const RESERVED_SUFFIXES = ['.localhost', '.local', '.localdomain', '.internal', '.intranet', '.lan', '.home.arpa', '.in-addr.arpa', '.ip6.arpa', '.onion'];

const isLocalhostName = (host: string) => host === 'localhost' || host.endsWith('.localhost');

function reservedName(host: string): boolean {
  return RESERVED_NAMES.has(host) || RESERVED_SUFFIXES.some((suffix) => host.endsWith(suffix)) || !host.includes('.');
}

export function checkWebhookUrl(raw: string, mode: AppMode): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'Not a valid absolute URL.' };
  }
  if (url.username || url.password) return { ok: false, reason: 'Credentials in the URL are not allowed.' };
  // The WHATWG parser already turns 2130706433, 0x7f.1 and friends into dotted IPv4.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  const literal = isIpLiteral(host);
  const loopbackHost = literal ? classifyAddress(host)?.category === 'loopback' : isLocalhostName(host);

  if (url.protocol === 'http:') {
    if (mode !== 'local' || !loopbackHost) {
      return { ok: false, reason: mode === 'local' ? 'Use https (plain http only to loopback in local mode).' : 'Use https.' };
    }
  } else if (url.protocol !== 'https:') {
    return { ok: false, reason: 'Use https.' };
  } else if (url.port !== '' && !(mode === 'local' && loopbackHost)) {
    // The WHATWG parser empties the default port: only 443 is left. Other ports would let webhooks probe hosts' services.
    return { ok: false, reason: 'Use the https port 443 (no other port is allowed).' };
  }

  if (literal) {
    const denied = deniedAddress(host, mode);
    if (denied) return { ok: false, reason: `Refused: ${denied.reason}.` };
  } else if (!(mode === 'local' && isLocalhostName(host)) && reservedName(host)) {
    return { ok: false, reason: `Refused: ${host} is not a public DNS name.` };
  }
  return { ok: true, url, host };
}

/**
 * Every address the name resolved to must be reachable under the rules, else the send is refused
 * (a single private answer is enough to refuse: the connection could land on any of them).
 * Plain http (local mode) must stay on loopback.
 */
export function checkResolvedAddresses(url: URL, addresses: string[], mode: AppMode): string | undefined {
  if (addresses.length === 0) return `${url.hostname} resolved to no address`;
  for (const address of addresses) {
    const denied = deniedAddress(address, mode);
    if (denied) return `${url.hostname} resolves to ${denied.reason}`;
    if (url.protocol === 'http:' && classifyAddress(address)?.category !== 'loopback') {
      return `${url.hostname} resolves to ${address}, which is not loopback (plain http only to loopback)`;
    }
  }
  return undefined;
}
