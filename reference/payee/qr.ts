// QR rendering, PROFILE.md §8.1: byte mode (forced with one byte segment, since the
// library would otherwise pick modes per segment), error correction M, a quiet
// zone of 4 modules. The image decodes to exactly the URI (DLV-QR-1).
import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;
/** Pixels per module: the qrcode library's default, so the PNG is the image its own renderer draws. */
const SCALE = 4;

function segments(uri: string) {
  return [{ data: Buffer.from(uri, 'utf8'), mode: 'byte' as const }];
}

/**
 * The symbol comes from the qrcode library (segments, error correction,
 * masking); the PNG is written here, one bit per pixel in grayscale (black 0,
 * white 1). The library's own PNG renderer draws RGBA through pngjs, which
 * writes no depth below 8 bits: 3.7 ms of CPU per image, where the symbol
 * takes under 1, and a full conformance run renders one per payee request.
 * The pixels are the same (test/reference/payee.test.ts compares them).
 * zlib.crc32 is in Node from 20.15 (package.json asks for 20.19).
 */
export function renderQrPng(uri: string, drawn: { readonly level?: 'L' | 'M'; readonly margin?: number } = {}): Buffer {
  // Mutants payee-qr-level-l and payee-qr-quiet-zone-narrow draw otherwise.
  const { level = OPTIONS.errorCorrectionLevel, margin = OPTIONS.margin } = drawn;
  // Stryker disable next-line ObjectLiteral: the library's default level is M
  const { modules } = QRCode.create(segments(uri), { errorCorrectionLevel: level });
  const side = (modules.size + 2 * margin) * SCALE;
  const stride = 1 + Math.ceil(side / 8);
  // Every row starts with filter type 0 (none); all pixels start white. Each
  // module row is drawn once into its first pixel row, then copied SCALE - 1 times.
  const raw = Buffer.alloc(stride * side, 0xff);
  // Stryker disable next-line EqualityOperator: a write past the end of a Buffer is ignored
  for (let y = 0; y < side; y++) raw[y * stride] = 0;
  // Stryker disable next-line EqualityOperator: a row past the symbol has no dark module, and its copies are white onto white
  for (let row = 0; row < modules.size; row++) {
    const first = (row + margin) * SCALE * stride;
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let x = (col + margin) * SCALE, end = x + SCALE; x < end; x++) {
        const at = first + 1 + (x >> 3);
        raw[at] = raw[at]! & ~(0x80 >> (x & 7));
      }
    }
    for (let copy = 1; copy < SCALE; copy++) raw.copy(raw, first + copy * stride, first, first + stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // colour type: grayscale; compression, filter and interlace methods 0
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

export function renderQrSvg(uri: string): Promise<string> {
  // Stryker disable next-line ObjectLiteral: the SVG form is served to no client; the PNG is the one PROFILE.md §8.1 tests
  return QRCode.toString(segments(uri), { ...OPTIONS, type: 'svg' });
}
