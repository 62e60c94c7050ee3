import { inflateSync } from 'node:zlib';

/** One text-showing operation of a page: the font resource it is set in (`F1`, `F2` …) and its text. */
export interface PdfTextRun {
  font: string;
  text: string;
}

/**
 * The text runs of each content stream of a PDF written by pdfkit (one stream per page, in page
 * order): inflate each stream, follow its `Tf` font selections and decode its hex text strings.
 * Streams that are not text (images, fonts) have no runs and are left out.
 */
export function pdfPageRuns(pdf: Buffer): PdfTextRun[][] {
  const pages: PdfTextRun[][] = [];
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
    const runs: PdfTextRun[] = [];
    let font = '';
    for (const op of content.matchAll(/\/(\w+) [\d.]+ Tf|(\[(?:<[0-9a-fA-F]*>|[^\]])*\])\s*TJ/g)) {
      if (op[1]) font = op[1];
      else runs.push({ font, text: (op[2]!.match(/<([0-9a-fA-F]*)>/g) ?? []).map((hex) => Buffer.from(hex.slice(1, -1), 'hex').toString('latin1')).join('') });
    }
    if (runs.length > 0) pages.push(runs);
  }
  return pages;
}

/** Text of a PDF written by pdfkit, one text run per line. */
export function pdfText(pdf: Buffer): string {
  return pdfPageRuns(pdf).flat().map((run) => run.text).join('\n');
}
