import { BUNDLE_ALIASES } from '../../lib/app-function';
import path from 'node:path';

/**
 * The function bundles replace shapefile's `text-encoding` polyfill with Node's own decoders
 * (lib/bundle-shims/text-encoding.js): both must read a .dbf the same way, in the encodings the
 * shapefile reader asks for (a .cpg of UTF-8, else Windows-1252).
 */
type Encoding = { TextDecoder: typeof TextDecoder; TextEncoder: typeof TextEncoder };
// shapefile's own dependency (no type declarations).
const polyfill = require('text-encoding') as Encoding;
const shim = require(path.join(__dirname, '../..', BUNDLE_ALIASES['text-encoding']!)) as Encoding;

describe('the bundled text-encoding shim', () => {
  it('decodes every Windows-1252 byte as the polyfill does', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const expected = new polyfill.TextDecoder('windows-1252').decode(bytes);
    expect(new shim.TextDecoder('windows-1252').decode(bytes)).toBe(expected);
    expect(expected.slice(0x80, 0x81)).toBe('€');
  });

  it('decodes UTF-8, including invalid sequences, as the polyfill does', () => {
    const samples = [Buffer.from('Miami-Dade · Key Biscayne · São Paulo · 東京', 'utf8'), Buffer.from([0x41, 0xc3, 0x28, 0xe2, 0x82, 0x42, 0xff])];
    for (const sample of samples) {
      expect(new shim.TextDecoder('utf-8').decode(sample)).toBe(new polyfill.TextDecoder('utf-8').decode(sample));
    }
  });

  it('encodes as UTF-8', () => {
    expect(Buffer.from(new shim.TextEncoder().encode('Café')).toString('hex')).toBe(Buffer.from(new polyfill.TextEncoder().encode('Café')).toString('hex'));
  });
});
