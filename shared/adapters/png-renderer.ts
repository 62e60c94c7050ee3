import { readFileSync } from 'node:fs';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import type { PngRenderer } from '../domain/deliverables/ports';

let ready: Promise<void> | undefined;

/**
 * resvg compiled to WebAssembly: the same renderer as its native builds, on any architecture. The
 * module is read from the installed package (installed beside the bundle in AWS), once per process.
 */
export class ResvgPngRenderer implements PngRenderer {
  async render(svg: string): Promise<Buffer> {
    ready ??= initWasm(readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
    await ready;
    // At the SVG's own size. The maps carry no text: the WebAssembly build loads no font.
    const resvg = new Resvg(svg);
    const image = resvg.render();
    try {
      return Buffer.from(image.asPng());
    } finally {
      image.free();
      resvg.free();
    }
  }
}
