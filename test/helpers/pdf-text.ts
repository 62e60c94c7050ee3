import { inflateSync } from 'node:zlib';

/**
 * What pdfkit draws on a page, in its top-down page coordinates (points, y growing downwards, as
 * pdfkit's own `doc.y`): text runs, images and straight rules.
 */
export interface PdfPage {
  height: number;
  /** A text-showing operation: the font resource (`F1`, `F2` …), size, left x and baseline y. */
  texts: { font: string; size: number; x: number; baseline: number; text: string }[];
  images: { x: number; width: number; top: number; bottom: number }[];
  /** Horizontal lines drawn (moved to, lined to; stroked after their colour and width are set). */
  rules: { x1: number; x2: number; y: number }[];
}

const NUMBER = String.raw`-?[\d.]+`;
const OPERATIONS = new RegExp([
  String.raw`\/(\w+) (${NUMBER}) Tf`,
  String.raw`1 0 0 1 (${NUMBER}) (${NUMBER}) Tm`,
  String.raw`(\[(?:<[0-9a-fA-F]*>|[^\]])*\])\s*TJ`,
  String.raw`(${NUMBER}) 0 0 (${NUMBER}) (${NUMBER}) (${NUMBER}) cm\s+\/\w+ Do`,
  String.raw`(${NUMBER}) (${NUMBER}) m\s+(${NUMBER}) (${NUMBER}) l`,
].join('|'), 'g');

/**
 * The pages of a PDF written by pdfkit (one content stream per page, in page order; pages of US
 * Letter size, 792 pt high): each stream inflated and its text, image and rule operations read.
 * Streams that draw nothing of these (images' own data, fonts) are left out.
 */
export function pdfPages(pdf: Buffer, height = 792): PdfPage[] {
  const pages: PdfPage[] = [];
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
    const page: PdfPage = { height, texts: [], images: [], rules: [] };
    let font = '';
    let size = 0;
    let at = { x: 0, y: 0 };
    for (const op of content.matchAll(OPERATIONS)) {
      if (op[1]) [font, size] = [op[1], Number(op[2])];
      // Text is set inside a flip back to PDF's bottom-up axis: its y counts from the foot of the page.
      else if (op[3]) at = { x: Number(op[3]), y: height - Number(op[4]) };
      else if (op[5]) {
        const text = (op[5].match(/<([0-9a-fA-F]*)>/g) ?? []).map((hex) => Buffer.from(hex.slice(1, -1), 'hex').toString('latin1')).join('');
        page.texts.push({ font, size, x: at.x, baseline: at.y, text });
      } else if (op[6]) {
        // An image maps the unit square: width, minus its height (the page is flipped), then its foot.
        const [width, negativeHeight, x, foot] = [op[6], op[7], op[8], op[9]].map(Number) as [number, number, number, number];
        page.images.push({ x, width, top: foot + negativeHeight, bottom: foot });
      } else if (op[10]) {
        const [x1, y1, x2, y2] = [op[10], op[11], op[12], op[13]].map(Number) as [number, number, number, number];
        if (y1 === y2) page.rules.push({ x1, x2, y: y1 });
      }
    }
    if (page.texts.length + page.images.length > 0) pages.push(page);
  }
  return pages;
}

/** Text of a PDF written by pdfkit, one text run per line. */
export function pdfText(pdf: Buffer): string {
  return pdfPages(pdf).flatMap((page) => page.texts.map((run) => run.text)).join('\n');
}
