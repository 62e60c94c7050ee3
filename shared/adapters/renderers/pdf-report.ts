import PDFDocument from 'pdfkit';
import type { ReportRenderer } from '../../application/deliverables/ports';
import type { ReportBlock, ReportDocument, ReportMap } from '../../domain/deliverables/report-document';

/**
 * The report laid out by pdfkit on letter pages in the standard Helvetica fonts: tables drawn by
 * hand, maps as images with their words set over them in the PDF's own fonts.
 */
const MARGIN = 50;
/** Helvetica's ascender: pdfkit sets a line's baseline this far below the y it is given. */
const BASELINE_EM = 0.718;

/** The standard PDF fonts speak WinAnsi: no minus sign (U+2212) or other signs beyond it. */
const winAnsi = (text: string) =>
  text
    .replace(/\u2212/g, '-')
    .replace(/\u2192/g, '->')
    .replace(/[\u2264]/g, '<=')
    .replace(/[\u2265]/g, '>=');

class Writer {
  constructor(readonly doc: PDFKit.PDFDocument) {}

  heading(text: string) {
    this.doc.addPage();
    this.doc.font('Helvetica-Bold').fontSize(16).fillColor('#0b3d5c').text(text, MARGIN, MARGIN);
    this.doc.moveDown(0.5).font('Helvetica').fontSize(10).fillColor('#000');
  }

  para(text: string) {
    this.doc
      .font('Helvetica')
      .fontSize(10)
      .fillColor('#000')
      .text(winAnsi(text), { width: this.doc.page.width - 2 * MARGIN });
    this.doc.moveDown(0.4);
  }

  /** A map across the text width from `top`, its words set over it in the PDF's fonts. */
  map(map: ReportMap, top: number) {
    const { doc } = this;
    const scale = (doc.page.width - 2 * MARGIN) / map.drawing.width;
    doc.image(map.png, MARGIN, top, { width: map.drawing.width * scale });
    for (const run of map.drawing.texts) {
      const text = winAnsi(run.text);
      const size = run.size * scale;
      doc
        .font(run.bold ? 'Helvetica-Bold' : 'Helvetica')
        .fontSize(size)
        .fillColor('#111');
      const width = doc.widthOfString(text);
      const x = MARGIN + run.x * scale - (run.anchor === 'middle' ? width / 2 : run.anchor === 'end' ? width : 0);
      // The drawing places a run by its baseline, pdfkit by the top of its line.
      doc.text(text, x, top + run.y * scale - size * BASELINE_EM, { lineBreak: false });
    }
    doc.fillColor('#000');
    doc.x = MARGIN;
    doc.y = top + map.drawing.height * scale;
  }

  /**
   * A table with fixed column widths. The header repeats on each new page and never stands alone
   * at a page's foot: it starts the next page when its first row would not fit under it.
   */
  table(headers: string[], widths: number[], rows: (string | number)[][]) {
    const { doc } = this;
    const bottom = doc.page.height - MARGIN;
    const font = (bold: boolean) => doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    const heightOf = (cells: (string | number)[], bold: boolean) =>
      Math.max(...cells.map((c, i) => font(bold).heightOfString(winAnsi(String(c)), { width: widths[i]! - 4 }))) + 4;
    const newPage = () => {
      doc.addPage();
      doc.y = MARGIN;
    };
    const draw = (cells: (string | number)[], bold: boolean, height: number) => {
      const y = doc.y;
      let x = MARGIN;
      cells.forEach((cell, i) => {
        font(bold)
          .fillColor('#000')
          .text(winAnsi(String(cell)), x + 2, y + 2, { width: widths[i]! - 4 });
        x += widths[i]!;
      });
      doc
        .moveTo(MARGIN, y + height)
        .lineTo(x, y + height)
        .strokeColor('#cccccc')
        .lineWidth(0.5)
        .stroke();
      doc.y = y + height;
    };
    const headerHeight = heightOf(headers, true);
    if (doc.y + headerHeight + (rows[0] ? heightOf(rows[0], false) : 0) > bottom) newPage();
    draw(headers, true, headerHeight);
    for (const cells of rows) {
      const height = heightOf(cells, false);
      if (doc.y + height > bottom) {
        newPage();
        draw(headers, true, headerHeight);
      }
      draw(cells, false, height);
    }
    doc.x = MARGIN;
    doc.moveDown(0.6);
  }
}

function cover(doc: PDFKit.PDFDocument, block: Extract<ReportBlock, { type: 'cover' }>) {
  doc.font('Helvetica-Bold').fontSize(22).fillColor('#0b3d5c').text(block.title, MARGIN, 160, { align: 'center' });
  doc.moveDown().font('Helvetica').fontSize(12).fillColor('#000');
  for (const line of block.lines) doc.text(line, { align: 'center' });
  doc.moveDown(2).fontSize(9).fillColor('#444').text(block.notice, { align: 'center' });
  doc.moveDown(2).fontSize(11).fillColor('#000').text('Contents', { align: 'left' });
  for (const section of block.contents) doc.fontSize(10).text(section);
}

function draw(w: Writer, block: ReportBlock) {
  switch (block.type) {
    case 'cover':
      cover(w.doc, block);
      break;
    case 'heading':
      w.heading(block.text);
      break;
    case 'para':
      w.para(block.text);
      break;
    case 'label':
      w.doc.font('Helvetica-Bold').fontSize(10).text(winAnsi(block.text), MARGIN);
      w.doc.moveDown(0.2);
      break;
    case 'table':
      w.table(block.headers, block.widths, block.rows);
      break;
    case 'map':
      if (block.newPage) w.doc.addPage();
      w.map(block.map, block.newPage ? MARGIN : w.doc.y);
      break;
  }
}

export class PdfKitReportRenderer implements ReportRenderer {
  render(document: ReportDocument): Promise<Buffer> {
    const doc = new PDFDocument({
      size: 'LETTER',
      margin: MARGIN,
      autoFirstPage: true,
      info: { Title: document.title, Author: document.author, Subject: document.subject },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
    const w = new Writer(doc);
    for (const block of document.blocks) draw(w, block);
    doc.end();
    return done;
  }
}
