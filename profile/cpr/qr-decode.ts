// Reads a QR code from a PNG, for DLV-QR-1 (the image decodes to exactly the URI)
// and PRF-QR-1 (byte mode, error correction M, a 4-module quiet zone, PROFILE.md §8.1).
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

type ErrorCorrection = 'L' | 'M' | 'Q' | 'H';

interface QrInspection {
  readonly text: string;
  readonly version: number;
  /** Segment modes in order, e.g. ['byte']. */
  readonly modes: readonly string[];
  readonly errorCorrection: ErrorCorrection;
  /** The narrowest of the four sides' quiet zones, in modules. */
  readonly quietZoneModules: number;
}

interface Raster {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

// jsqr is CommonJS; under NodeNext its default export types as the module object.
const decode = ((jsQR as unknown as { default?: typeof jsQR }).default ?? jsQR) as unknown as (
  data: Uint8ClampedArray,
  width: number,
  height: number,
) => { data: string; version: number; chunks: { type: string }[] } | null;

/** The text of the QR code in a PNG, or undefined when there is none (or it is not a PNG). */
export function decodeQrPng(png: Uint8Array): string | undefined {
  const raster = readPng(png);
  return raster ? decode(clamped(raster), raster.width, raster.height)?.data : undefined;
}

/**
 * Text, version, segment modes, error-correction level and quiet zone of a QR code
 * rendered straight (axis-aligned, as a generator writes it; not a photograph).
 */
export function inspectQrPng(png: Uint8Array): QrInspection | undefined {
  const raster = readPng(png);
  if (!raster) return undefined;
  const code = decode(clamped(raster), raster.width, raster.height);
  if (!code) return undefined;
  const size = 17 + 4 * code.version;
  // The three finder patterns reach all four edges of the symbol (the top-left
  // one the top and left, the top-right one the right, the bottom-left one the
  // bottom), so the box around the dark pixels is the symbol: its size gives
  // the scale on each axis, and what lies outside it on each side is that
  // side's quiet zone.
  const box = darkBox(raster);
  if (box === undefined) return undefined;
  const scaleX = (box.right - box.left + 1) / size;
  const scaleY = (box.bottom - box.top + 1) / size;
  const dark = (row: number, col: number) => isDark(raster, Math.floor(box.left + (col + 0.5) * scaleX), Math.floor(box.top + (row + 0.5) * scaleY));
  return {
    text: code.data,
    version: code.version,
    modes: code.chunks.map((c) => c.type),
    errorCorrection: errorCorrection(dark, size),
    quietZoneModules: Math.min(box.left / scaleX, (raster.width - 1 - box.right) / scaleX, box.top / scaleY, (raster.height - 1 - box.bottom) / scaleY),
  };
}

function readPng(png: Uint8Array): Raster | undefined {
  try {
    return PNG.sync.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  } catch {
    return undefined;
  }
}

function clamped(raster: Raster): Uint8ClampedArray {
  return new Uint8ClampedArray(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength);
}

function isDark(raster: Raster, x: number, y: number): boolean {
  const i = (y * raster.width + x) * 4;
  const luminance = ((raster.data[i] ?? 255) + (raster.data[i + 1] ?? 255) + (raster.data[i + 2] ?? 255)) / 3;
  return luminance < 128;
}

/** The first and last rows and columns that hold a dark pixel: each row is read from both ends up to its outermost dark pixels. */
function darkBox(raster: Raster): { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number } | undefined {
  let [left, right, top, bottom] = [raster.width, -1, -1, -1];
  for (let y = 0; y < raster.height; y++) {
    let first = 0;
    while (first < raster.width && !isDark(raster, first, y)) first++;
    if (first === raster.width) continue;
    let last = raster.width - 1;
    while (!isDark(raster, last, y)) last--;
    if (top < 0) top = y;
    bottom = y;
    left = Math.min(left, first);
    right = Math.max(right, last);
  }
  return top < 0 ? undefined : { left, right, top, bottom };
}

// ISO/IEC 18004 §7.9: the 15-bit format information is masked with 0x5412 and its
// two top bits give the level. Read from the copy in column 8: bits 0-5 in rows
// 0-5, bits 6-7 in rows 7-8, bits 8-14 in rows size-7 .. size-1.
const LEVEL_BITS: readonly ErrorCorrection[] = ['M', 'L', 'H', 'Q'];

function errorCorrection(dark: (row: number, col: number) => boolean, size: number): ErrorCorrection {
  let bits = 0;
  for (let i = 0; i < 15; i++) {
    const row = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    if (dark(row, 8)) bits |= 1 << i;
  }
  return LEVEL_BITS[((bits ^ 0x5412) >> 13) & 3] ?? 'M';
}
