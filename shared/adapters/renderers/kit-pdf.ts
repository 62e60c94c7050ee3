// pdfkit is shipped as a module beside the bundle (lib/api-functions.ts), not bundled: its ESM build
// computes its colour profile's path from import.meta.url at load (a CommonJS bundle has none: "Invalid
// URL"), and its CommonJS build loads the standard fonts through createRequire('#standard-fonts/…'),
// which esbuild cannot follow ("Cannot find module" at the first text). Bundled, it would also add
// about 900 KB minified (brotli 475 KB and fontkit 230 KB, for fonts this checklist never embeds) to
// a function budgeted at 870 KB; beside the bundle it is loaded only for a PDF (functions/v1-risk/deps.ts).
import PDFDocument from 'pdfkit';
import type { Kit } from '../../domain/preparedness/kit';
import type { KitRenderer } from '../../application/preparedness/ports';

const MARGIN = 50;

/** The kit as a printable checklist: a box to tick, the quantity, the item and where the rule comes from. */
function kitPdf(kit: Kit, generatedOn: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // A fixed creation date keeps the same kit the same bytes.
    const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: 'Disaster supply kit checklist', CreationDate: new Date(`${generatedOn}T00:00:00Z`) } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const h = kit.household;
    doc.font('Helvetica-Bold').fontSize(18).text('Disaster supply kit checklist');
    doc.moveDown(0.3).font('Helvetica').fontSize(10)
      .text(`Household: ${h.adults} adult${h.adults === 1 ? '' : 's'}, ${h.children} children, ${h.infants} infants, ${h.pets} pets · ${kit.days} days · ${h.hazard}${h.medical_needs ? ' · prescription medication' : ''}`)
      .text(`Water: ${kit.totals.water_gallons} gallons · Food: ${kit.totals.food_person_days} person-days${kit.totals.pet_supply_days ? ` · Pet food and water: ${kit.totals.pet_supply_days} pet-days` : ''}`)
      .text(`Prepared ${generatedOn}.`);
    doc.moveDown(0.8);

    const width = doc.page.width - 2 * MARGIN;
    const columns = { box: MARGIN, quantity: MARGIN + 18, item: MARGIN + 150, source: MARGIN + width - 90 };
    let group = '';
    for (const item of kit.items) {
      if (item.group !== group) {
        group = item.group;
        doc.moveDown(0.4).font('Helvetica-Bold').fontSize(11).text(group.charAt(0).toUpperCase() + group.slice(1), MARGIN);
        doc.font('Helvetica').fontSize(9);
      }
      // Conditions the request could not settle ("for each person who wears glasses") are printed with the item.
      const itemText = item.condition?.startsWith('for ') ? `${item.item} (${item.condition})` : item.item;
      const height = Math.max(doc.heightOfString(itemText, { width: columns.source - columns.item - 8 }), doc.heightOfString(`${item.quantity} ${item.unit}`, { width: columns.item - columns.quantity - 8 }));
      if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
      const y = doc.y + 2;
      doc.rect(columns.box, y, 9, 9).stroke();
      doc.text(`${item.quantity} ${item.unit}`, columns.quantity, y, { width: columns.item - columns.quantity - 8 });
      doc.text(itemText, columns.item, y, { width: columns.source - columns.item - 8 });
      doc.text(item.source_ids.join(', '), columns.source, y, { width: 90 });
      doc.y = y + height + 4;
    }

    doc.moveDown(1).font('Helvetica').fontSize(8).text(kit.notes.join(' '), MARGIN, doc.y, { width });
    doc.moveDown(0.5).text(`Sources: ${kit.sources.map((s) => `${s.id} — ${s.name}, ${s.url}`).join('; ')}.`, { width });
    doc.end();
  });
}

export const pdfKitRenderer: KitRenderer = { render: kitPdf };
