// A deterministic gzip'd tar (POSIX ustar) of a few flat files, and a strict
// reader for it. Written by hand rather than with a general tar library: the
// package holds six small regular files, so the writer is a header per file,
// and the reader accepts that and nothing else (no links, directories,
// extended headers, long names or paths). It reads from memory and never
// touches the disk, with bounds on every size, so a hostile archive is only
// ever an error.
import { gunzipSync, gzipSync } from 'node:zlib';
import { HarnessError } from '../errors.ts';

const BLOCK = 512;
/** Archives are padded to whole records of 20 blocks, as tar writes them. */
const RECORD = 20 * BLOCK;
/** Largest archive read (compressed) and largest content (uncompressed). */
export const ARCHIVE_LIMITS = { compressedBytes: 64 * 1024 * 1024, contentBytes: 256 * 1024 * 1024, entries: 32 } as const;
/** A flat file name: no directory, no dot segment, nothing a shell or a file system treats specially. */
const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;
const TYPE_NAMES: Readonly<Record<string, string>> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '5': 'a directory',
  '6': 'a FIFO',
  '7': 'a contiguous file',
  x: 'an extended (pax) header',
  g: 'a global extended (pax) header',
  L: 'a GNU long-name header',
  K: 'a GNU long-link header',
};

interface ArchiveEntry {
  readonly name: string;
  readonly data: Uint8Array;
}

/**
 * The archive of `entries`: sorted by name, each a regular file with mode 0644,
 * owner and group 0 and no names, and `mtime` (seconds); gzip with no name, no
 * time and an unknown OS. The same entries and mtime give the same bytes.
 */
export function writeArchive(entries: readonly ArchiveEntry[], mtime: number): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const blocks: Uint8Array[] = [];
  for (const [i, entry] of sorted.entries()) {
    if (!SAFE_NAME.test(entry.name)) throw new RangeError(`unsafe archive entry name ${JSON.stringify(entry.name)}`);
    if (i > 0 && sorted[i - 1]!.name === entry.name) throw new RangeError(`archive entry ${entry.name} given twice`);
    blocks.push(header(entry.name, entry.data.length, mtime), entry.data, new Uint8Array((BLOCK - (entry.data.length % BLOCK)) % BLOCK));
  }
  const body = Buffer.concat(blocks);
  // Two zero blocks end the archive; zeros pad it to a whole record.
  const tar = Buffer.alloc(Math.ceil((body.length + 2 * BLOCK) / RECORD) * RECORD);
  body.copy(tar);
  const gz = gzipSync(tar, { level: 9 });
  // RFC 1952 header byte 9, the OS zlib was built for: 255 (unknown) on every platform.
  gz[9] = 255;
  return new Uint8Array(gz.buffer, gz.byteOffset, gz.length);
}

function header(name: string, size: number, mtime: number): Uint8Array {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'ascii');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write(`${Math.max(0, Math.floor(mtime)).toString(8).padStart(11, '0')}\0`, 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(`${checksum(h).toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** The header's checksum: the sum of its bytes, the checksum field counted as spaces. */
function checksum(h: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]!;
  return sum;
}

function unreadable(message: string): HarnessError {
  return new HarnessError('PACKAGE_UNREADABLE', message);
}

/**
 * The files of an archive written by writeArchive, by name. Anything else (not
 * gzip, larger than ARCHIVE_LIMITS, a broken header, an entry that is not a
 * regular file or whose name is a path, a name twice, bytes after the end) is a
 * PACKAGE_UNREADABLE error naming what was found.
 */
export function readArchive(bytes: Uint8Array): Map<string, Uint8Array> {
  if (bytes.length > ARCHIVE_LIMITS.compressedBytes) throw unreadable(`the file is larger than ${ARCHIVE_LIMITS.compressedBytes / 1024 / 1024} MiB: not a package`);
  if (bytes.length < 18 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw unreadable('the file is not gzip-compressed: not a package');
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes, { maxOutputLength: ARCHIVE_LIMITS.contentBytes });
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError) throw unreadable(`the archive holds more than ${ARCHIVE_LIMITS.contentBytes / 1024 / 1024} MiB uncompressed: not a package`);
    throw unreadable(`the gzip stream is damaged: ${e.message}`);
  }
  if (tar.length % BLOCK !== 0) throw unreadable(`the tar stream is ${tar.length} bytes, not a whole number of ${BLOCK}-byte blocks`);
  const files = new Map<string, Uint8Array>();
  let at = 0;
  while (at < tar.length) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) {
      // The end: only zeros may follow (nothing hidden after it).
      if (!tar.subarray(at).every((b) => b === 0)) throw unreadable('data follows the end of the tar archive');
      return files;
    }
    if (files.size >= ARCHIVE_LIMITS.entries) throw unreadable(`the archive has more than ${ARCHIVE_LIMITS.entries} entries: not a package`);
    const stored = octal(h, 148, 8);
    if (stored === undefined || stored !== checksum(h)) throw unreadable(`the tar header at byte ${at} is damaged (its checksum does not match)`);
    if (h.toString('latin1', 257, 263) !== 'ustar\0' || h.toString('latin1', 263, 265) !== '00') throw unreadable(`the tar header at byte ${at} is not POSIX ustar`);
    const name = field(h, 0, 100);
    const shown = JSON.stringify(name);
    const type = String.fromCharCode(h[156]!);
    if (type !== '0' && type !== '\0') throw unreadable(`entry ${shown} is ${TYPE_NAMES[type] ?? `of tar type ${JSON.stringify(type)}`}: a package holds regular files only`);
    if (field(h, 345, 155) !== '' || field(h, 157, 100) !== '') throw unreadable(`entry ${shown} has a path prefix or a link name: a package holds flat file names only`);
    if (!SAFE_NAME.test(name) || name === '.' || name === '..') throw unreadable(`entry ${shown} is not a plain file name (a path, or characters a package never uses)`);
    if (files.has(name)) throw unreadable(`entry ${shown} appears twice`);
    const size = octal(h, 124, 12);
    if (size === undefined) throw unreadable(`entry ${shown} has an unreadable size`);
    const start = at + BLOCK;
    if (size > tar.length - start) throw unreadable(`entry ${shown} claims ${size} bytes, more than the archive holds`);
    files.set(name, new Uint8Array(tar.subarray(start, start + size)));
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw unreadable('the tar archive has no end marker (it was cut short)');
}

/** A NUL-terminated ASCII field. */
function field(h: Buffer, offset: number, length: number): string {
  const raw = h.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.toString('latin1', 0, end === -1 ? length : end);
}

/** An octal number field (digits, then NUL or spaces); undefined for anything else (base-256 sizes included). */
function octal(h: Buffer, offset: number, length: number): number | undefined {
  const text = h.toString('latin1', offset, offset + length).replace(/[\0 ]+$/, '').replace(/^ +/, '');
  if (!/^[0-7]{1,12}$/.test(text)) return undefined;
  return parseInt(text, 8);
}
