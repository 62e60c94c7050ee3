/**
 * The arcs of a quantized, delta-encoded TopoJSON topology packed into one base64 string: per arc
 * its point count, then each delta as a zigzag varint. The bundled boundary files use it because
 * JSON spends about ten characters on a delta pair that packs into three or four bytes, and the
 * functions that resolve jurisdictions carry the files in their bundles.
 */

function zigzag(value: number): number {
  return value < 0 ? -2 * value - 1 : 2 * value;
}

/** The arcs (arrays of integer delta pairs) as a packed string. */
export function packArcs(arcs: readonly number[][][]): string {
  const bytes: number[] = [];
  const write = (unsigned: number) => {
    let rest = unsigned;
    while (rest >= 0x80) {
      bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
  };
  for (const arc of arcs) {
    write(arc.length);
    for (const [dx, dy] of arc) {
      write(zigzag(dx!));
      write(zigzag(dy!));
    }
  }
  return Buffer.from(bytes).toString('base64');
}

/** The arcs again, as TopoJSON holds them. */
export function unpackArcs(packed: string): number[][][] {
  const bytes = Buffer.from(packed, 'base64');
  let at = 0;
  const read = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  };
  const signed = (unsigned: number) => (unsigned % 2 === 1 ? -(unsigned + 1) / 2 : unsigned / 2);
  const arcs: number[][][] = [];
  while (at < bytes.length) {
    const count = read();
    const arc: number[][] = [];
    for (let i = 0; i < count; i++) arc.push([signed(read()), signed(read())]);
    arcs.push(arc);
  }
  return arcs;
}

/** A stored topology (`packed_arcs` in place of `arcs`) as TopoJSON readers take it. */
export function unpackTopology<T>(stored: { packed_arcs: string }): T {
  const { packed_arcs: packed, ...rest } = stored;
  return { ...rest, arcs: unpackArcs(packed) } as T;
}
