// EVM addresses, PROFILE.md §7.4: `0x` + 40 hex digits; an address that mixes
// upper and lower case carries an EIP-55 checksum, which must then be valid.
import { keccak_256 } from '@noble/hashes/sha3.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const encoder = new TextEncoder();

export function isEvmAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !EVM_ADDRESS.test(value)) return false;
  const digits = value.slice(2);
  const mixedCase = /[a-f]/.test(digits) && /[A-F]/.test(digits);
  return !mixedCase || toChecksumAddress(value) === value;
}

/** The EIP-55 form of an address; throws TypeError when the input is not `0x` + 40 hex digits. */
export function toChecksumAddress(address: string): string {
  if (!EVM_ADDRESS.test(address)) throw new TypeError(`not an EVM address: ${JSON.stringify(address)}`);
  const lower = address.slice(2).toLowerCase();
  const hash = keccak_256(encoder.encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    // EIP-55: upper-case a letter when the matching nibble of the hash is >= 8.
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    const c = lower[i] ?? '';
    out += nibble >= 8 ? c.toUpperCase() : c;
  }
  return out;
}
