import { readFileSync } from 'node:fs';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import type { PngRenderer } from '../application/deliverables/ports';

let ready: Promise<void> | undefined;

/**
 * resvg compiled to WebAssembly: the same renderer as its native builds, on any architecture. The
 * module is read from the installed package (installed beside the bundle in AWS), once per process.
 * The WebAssembly build reads no system font: the report's maps carry no text (the PDF sets their
 * words), and a caller that draws text hands its font files in.
 */
export class ResvgPngRenderer implements PngRenderer {
  constructor(private readonly fontBuffers: Uint8Array[] = []) {}

  async render(svg: string): Promise<Buffer> {
    ready ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
    await ready;
    // At the SVG's own size.
    const resvg = new Resvg(svg, { font: { fontBuffers: this.fontBuffers, loadSystemFonts: false } });
    const image = resvg.render();
    try {
      return Buffer.from(image.asPng());
    } finally {
      image.free();
      resvg.free();
    }
  }
}
