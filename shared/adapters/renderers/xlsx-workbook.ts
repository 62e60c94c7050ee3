import { PassThrough } from 'node:stream';
import type { WorkbookBuilder, WorkbookWriter } from '../../application/deliverables/ports';
import type { WorkbookSheet } from '../../domain/deliverables/asset-list';

/**
 * XLSX through exceljs's streaming writer: each row is committed (serialised into the zip stream)
 * as it is added, so memory holds the compressed file, not a cell object per value.
 */
export class ExcelJsWorkbookWriter implements WorkbookWriter {
  async open(sheet: WorkbookSheet): Promise<WorkbookBuilder> {
    // Loaded on first use, not with the function: it costs more to load than the rest of it.
    const { default: ExcelJS } = await import('exceljs');
    const stream = new PassThrough();
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
    workbook.creator = sheet.creator;
    const rows = workbook.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    rows.columns = sheet.columns.map((c) => ({ ...c }));
    rows.getRow(1).font = { bold: true };
    return {
      addRow(values) {
        rows.addRow(values).commit();
      },
      async finish() {
        rows.commit();
        const about = workbook.addWorksheet('About');
        for (const line of sheet.about) about.addRow([...line]).commit();
        about.commit();
        await workbook.commit();
        await ended;
        const file = Buffer.concat(chunks);
        chunks.length = 0;
        return file;
      },
    };
  }
}
