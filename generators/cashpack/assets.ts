// Assets an Operator's policy does not list (PROFILE.md §5 issue step 6
// compares the whole AssetDescriptor), for the scenarios' template functions
// unlisted_asset() and recoded_assets(), the fuzzer and the properties.
import { canonicalJson } from '../../profile/jcs.ts';
import type { AssetDescriptor, AssetType } from '../../profile/cashpack/types.ts';

/** The asset types of an AssetDescriptor (spec §2.3). */
const ASSET_TYPES: readonly AssetType[] = ['fiat', 'stablecoin', 'crypto', 'tokenized'];

/** The ISO 4217 codes of test currencies and other units no Operator issues, in the order they are tried. */
const TEST_CURRENCIES = ['XTS', 'XXX', 'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XUA'];

/** A fiat asset none of `assets` is (the first of XTS, XXX, XBA, ... the policy does not list); undefined when it lists them all. */
export function unlistedAsset(assets: readonly AssetDescriptor[]): AssetDescriptor | undefined {
  const listed = new Set(assets.map((a) => canonicalJson(a)));
  const code = TEST_CURRENCIES.find((c) => !listed.has(canonicalJson({ type: 'fiat', code: c })));
  return code === undefined ? undefined : { type: 'fiat', code };
}

/**
 * Every asset that shares the code of a listed one but is another asset:
 * each other type (with a chain where the type needs one), and the same type
 * on another chain or with none. An Operator that matches assets by their code
 * alone, or by code and type, or ignores the chain, takes one of them for the
 * listed one. Only descriptors the asset schema allows; none the policy lists.
 */
export function recodedAssets(assets: readonly AssetDescriptor[]): AssetDescriptor[] {
  const seen = new Set(assets.map((a) => canonicalJson(a)));
  const chained = (type: AssetType) => type === 'stablecoin' || type === 'tokenized';
  const out: AssetDescriptor[] = [];
  const add = (a: AssetDescriptor) => {
    const key = canonicalJson(a);
    if (!seen.has(key) && (a.type !== 'fiat' || /^[A-Z]{3}$/.test(a.code)) && (a.chain_id !== undefined || !chained(a.type))) {
      seen.add(key);
      out.push(a);
    }
  };
  for (const { type, code, chain_id } of assets) {
    for (const other of ASSET_TYPES.filter((t) => t !== type)) add(chained(other) ? { type: other, code, chain_id: chain_id ?? '1' } : { type: other, code });
    const otherChain = chain_id === '1' ? '2' : '1';
    add({ type, code, chain_id: otherChain });
    if (chain_id !== undefined && !chained(type)) add({ type, code });
  }
  return out;
}
