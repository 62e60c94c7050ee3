import { inflateSync } from 'node:zlib';

/** Text of a PDF written by pdfkit: inflate each content stream and decode its hex text strings. */
export function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const latin = pdf.toString('latin1');
  const streams = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streams.exec(latin))) {
    const start = match.index + match[0].length;
    const end = latin.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const array of content.match(/\[(?:<[0-9a-fA-F]*>|[^\]])*\]\s*TJ/g) ?? []) {
      out.push((array.match(/<([0-9a-fA-F]*)>/g) ?? []).map((hex) => Buffer.from(hex.slice(1, -1), 'hex').toString('latin1')).join(''));
    }
  }
  return out.join('\n');
}
