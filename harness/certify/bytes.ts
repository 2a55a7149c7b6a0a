// The byte helpers every file of a package is made with.
import { createHash } from 'node:crypto';

export function jsonFile(value: unknown): Uint8Array {
  return utf8(`${JSON.stringify(value, null, 2)}\n`);
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function byBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
