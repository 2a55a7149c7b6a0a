// The QR inspection behind DLV-QR-1 and PRF-QR-1 (profile/cpr/qr-decode.ts),
// against images the qrcode library draws: any level, quiet zone and scale is
// read back as drawn, and a quiet zone narrowed on any one side is seen.
import fc from 'fast-check';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { decodeQrPng, inspectQrPng } from '../../profile/cpr/index.ts';

type Level = 'L' | 'M' | 'Q' | 'H';

const draw = (uri: string, level: Level, margin: number, scale: number) =>
  QRCode.toBuffer([{ data: Buffer.from(uri, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: level, margin, scale, type: 'png' });

const uris = fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }).map((s) => `std-cpr://inline/${s}`);
const levels = fc.constantFrom<Level>('L', 'M', 'Q', 'H');

/** The image with one more dark pixel at (x, y), or with `pad` white columns added on the right. */
function edited(png: Buffer, edit: { readonly darken?: readonly [number, number]; readonly padRight?: number }): Buffer {
  const image = PNG.sync.read(png);
  const pad = edit.padRight ?? 0;
  const out = new PNG({ width: image.width + pad, height: image.height });
  out.data.fill(255);
  for (let y = 0; y < image.height; y++) image.data.copy(out.data, y * out.width * 4, y * image.width * 4, (y + 1) * image.width * 4);
  if (edit.darken) {
    const [x, y] = edit.darken;
    out.data.fill(0, (y * out.width + x) * 4, (y * out.width + x) * 4 + 3);
  }
  return PNG.sync.write(out);
}

describe('inspectQrPng', () => {
  it('reads back the text, the byte mode, the level and the quiet zone of any image the library draws', async () => {
    // At one pixel a module jsQR finds a symbol only with the quiet zone PROFILE.md §8.1 asks for (4 modules); a narrower one is drawn larger.
    const drawing = fc.integer({ min: 1, max: 4 }).chain((scale) => fc.tuple(fc.integer({ min: scale === 1 ? 4 : 1, max: 6 }), fc.constant(scale)));
    await fc.assert(
      fc.asyncProperty(uris, levels, drawing, async (uri, level, [margin, scale]) => {
        const png = await draw(uri, level, margin, scale);
        expect(decodeQrPng(png)).toBe(uri);
        expect(inspectQrPng(png)).toMatchObject({ text: uri, modes: ['byte'], errorCorrection: level, quietZoneModules: margin });
      }),
      { numRuns: 40, seed: 11 },
    );
  });

  it('takes the narrowest side: a dark pixel in any side of the quiet zone narrows it', async () => {
    const sides = fc.constantFrom('left', 'right', 'top', 'bottom');
    await fc.assert(
      fc.asyncProperty(uris, fc.integer({ min: 2, max: 4 }), sides, fc.nat(), async (uri, scale, side, along) => {
        const margin = 4;
        const png = await draw(uri, 'M', margin, scale);
        const { width } = PNG.sync.read(png);
        // One pixel inside the quiet zone, one pixel from the symbol's edge.
        const near = margin * scale - 1;
        const far = width - 1 - near;
        const other = along % width;
        const at: [number, number] = side === 'left' ? [near, other] : side === 'right' ? [far, other] : side === 'top' ? [other, near] : [other, far];
        // Still read (one pixel outside the symbol breaks no decoding), with a zone narrower than drawn.
        expect(inspectQrPng(edited(png, { darken: at }))?.quietZoneModules).toBeLessThan(margin);
      }),
      { numRuns: 24, seed: 12 },
    );
  });

  it('measures the symbol, not the image: white added on one side leaves the narrowest zone and the level as drawn', async () => {
    const png = await draw('std-cpr://ab?endpoint=https%3A%2F%2Fpay.example', 'Q', 4, 3);
    expect(inspectQrPng(edited(png, { padRight: 37 }))).toMatchObject({ errorCorrection: 'Q', quietZoneModules: 4 });
  });

  it('finds nothing in an image without a dark pixel, or in bytes that are no PNG', () => {
    const blank = new PNG({ width: 40, height: 40 });
    blank.data.fill(255);
    expect(inspectQrPng(PNG.sync.write(blank))).toBeUndefined();
    expect(inspectQrPng(new TextEncoder().encode('not a png'))).toBeUndefined();
  });
});
