'use strict';
// Bundled in place of the `text-encoding` polyfill (shapefile's dependency, 550 KB of encoding
// tables). Node's own TextDecoder decodes UTF-8, but some Node releases decode "windows-1252" as
// Latin-1 (0x80–0x9F become C1 controls instead of € ‚ ƒ …), so that encoding is decoded here:
// Latin-1 with its 32 differing code points mapped. test/unit/text-encoding-shim.test.ts compares
// every byte with the polyfill.
const WINDOWS_1252_LABELS = new Set(['windows-1252', 'cp1252', 'x-cp1252']);
const WINDOWS_1252_80_9F = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f'
  + '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

class Windows1252Decoder {
  get encoding() {
    return 'windows-1252';
  }

  decode(input) {
    if (input === undefined) return '';
    const bytes = ArrayBuffer.isView(input) ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
    let text = '';
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i];
      text += byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_80_9F[byte - 0x80] : String.fromCharCode(byte);
    }
    return text;
  }
}

function TextDecoder(label = 'utf-8', options) {
  return WINDOWS_1252_LABELS.has(String(label).trim().toLowerCase()) ? new Windows1252Decoder() : new globalThis.TextDecoder(label, options);
}

module.exports = { TextDecoder, TextEncoder: globalThis.TextEncoder };
