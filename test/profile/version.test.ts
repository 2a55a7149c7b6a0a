// The profile identifier has one home, profile/version.ts, with its changelog:
// PROFILE.md publishes the same (the identifier and §14 "Changes"), every
// document that names the identifier names that one, the wire constants that
// are names keep theirs, and a target that advertises an earlier version is
// told which rules changed since.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROFILE_ID, PROFILE_VERSIONS, TAG_NAMESPACE, profileNotice } from '../../profile/version.ts';
import { SIGNING_TAGS } from '../../profile/signing.ts';
import vectorSchema from '../../vectors/vector.schema.json' with { type: 'json' };

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** §14 as PROFILE.md writes it, from the machine-readable changelog. */
function changesSection(): string {
  return PROFILE_VERSIONS.map((v) => [`### ${v.id} (${v.date})`, '', `${v.summary}.`, ...(v.changes.length > 0 ? ['', ...v.changes.map((c) => `- **${c.section}**: ${c.rule}. *Built against the earlier text:* ${c.change}.`)] : [])].join('\n')).join('\n\n');
}

describe('the profile identifier and its changelog', () => {
  it('is the newest version, and versions run newest first with dates that do not go forward', () => {
    expect(PROFILE_ID).toBe(PROFILE_VERSIONS[0]!.id);
    const dates = PROFILE_VERSIONS.map((v) => v.date);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const v of PROFILE_VERSIONS) expect(v.id).toMatch(/^CPP-PROFILE-\d+\.\d+$/);
    expect(PROFILE_VERSIONS.at(-1)!.changes).toEqual([]);
    for (const v of PROFILE_VERSIONS.slice(0, -1)) expect(v.changes.length).toBeGreaterThan(0);
  });

  it('is what PROFILE.md publishes: its title, the identifier and §14 "Changes", newest first', () => {
    const profile = read('PROFILE.md');
    expect(profile.split('\n')[0]).toBe(`# ${PROFILE_ID}: the cpr-conformance wire profile`);
    expect(profile).toContain(`Profile identifier: **\`${PROFILE_ID}\`**`);
    const section = profile.slice(profile.indexOf('## 14. Changes'));
    expect(section).toContain(changesSection());
    expect(section.trimEnd().endsWith(changesSection())).toBe(true);
  });

  it('is the identifier the policy document (§4.8) and capability discovery (§12) are shown to carry', () => {
    const profile = read('PROFILE.md').slice(0, read('PROFILE.md').indexOf('## 14. Changes'));
    const shown = [...profile.matchAll(/`(CPP-PROFILE-[\d.]+)`, the identifier of this profile|"profile": "(CPP-PROFILE-[\d.]+)"/g)].map((m) => m[1] ?? m[2]);
    expect(shown).toHaveLength(2);
    expect(shown).toEqual([PROFILE_ID, PROFILE_ID]);
  });

  it('is the identifier the vector files and their schema carry', () => {
    expect(vectorSchema.properties.profile.const).toBe(PROFILE_ID);
    expect(JSON.parse(read('vectors/jcs.json')).profile).toBe(PROFILE_ID);
  });

  it('leaves the names the wire constants are built on as they were: the domain and chain digest tags', () => {
    expect(TAG_NAMESPACE).toBe('CPP-PROFILE-1.0');
    expect(Object.values(SIGNING_TAGS).every((tag) => tag.startsWith('CPP-PROFILE-1.0/'))).toBe(true);
    expect(read('PROFILE.md')).toContain('"CPP-PROFILE-1.0/chain-genesis"');
  });
});

describe('profileNotice', () => {
  it('says nothing of this profile\'s identifier', () => {
    expect(profileNotice(PROFILE_ID)).toBeUndefined();
  });

  it('tells an implementation of CPP-PROFILE-1.0 every rule changed since, with its section and date', () => {
    const notice = profileNotice('CPP-PROFILE-1.0')!;
    expect(notice).toMatch(/^CPP-PROFILE-1\.0 \(2026-11-21\) is an earlier version of this profile; this harness tests CPP-PROFILE-1\.4\./);
    for (const v of PROFILE_VERSIONS.slice(0, -1)) for (const change of v.changes) expect(notice).toContain(`${change.section} (${v.id}, ${v.date}): ${change.rule}; built against the earlier text: ${change.change}`);
    expect(notice).toContain('§2.4 (CPP-PROFILE-1.1, 2026-11-25)');
    expect(notice).toContain('§4.7 (CPP-PROFILE-1.2, 2026-11-26)');
    expect(notice).toContain('§7.3, §7.4, §8.3 (CPP-PROFILE-1.3, 2026-11-26)');
    expect(notice).toContain('§10 (CPP-PROFILE-1.4, 2026-11-27)');
  });

  it('tells an implementation of CPP-PROFILE-1.1 only what changed after it: the rule for updated_at, then the field defects', () => {
    const notice = profileNotice('CPP-PROFILE-1.1')!;
    expect(notice).toMatch(/^CPP-PROFILE-1\.1 \(2026-11-25\) is an earlier version of this profile; this harness tests CPP-PROFILE-1\.4\./);
    expect(notice).toContain("§4.7 (CPP-PROFILE-1.2, 2026-11-26): updated_at is the Operator's clock at the pack's last state change");
    expect(notice).toContain('§7.3, §7.4, §8.3 (CPP-PROFILE-1.3, 2026-11-26)');
    expect(notice).not.toContain('§2.4 (CPP-PROFILE-1.1');
  });

  it('tells an implementation of CPP-PROFILE-1.2 only which registry rule a field defect breaks', () => {
    const notice = profileNotice('CPP-PROFILE-1.2')!;
    expect(notice).toMatch(/^CPP-PROFILE-1\.2 \(2026-11-26\) is an earlier version of this profile; this harness tests CPP-PROFILE-1\.4\./);
    expect(notice).toContain('§7.3, §7.4, §8.3 (CPP-PROFILE-1.3, 2026-11-26): a sub-interface field or asset member that is missing where required');
    expect(notice).not.toContain('§4.7 (CPP-PROFILE-1.2');
  });

  it('tells an implementation of CPP-PROFILE-1.3 only how long a payee knows its tokens', () => {
    const notice = profileNotice('CPP-PROFILE-1.3')!;
    expect(notice).toMatch(/^CPP-PROFILE-1\.3 \(2026-11-26\) is an earlier version of this profile; this harness tests CPP-PROFILE-1\.4\./);
    expect(notice).toContain('§10 (CPP-PROFILE-1.4, 2026-11-27): a payee knows every token it issued');
    expect(notice).not.toContain('(CPP-PROFILE-1.3, 2026-11-26)');
  });

  it.each([
    ['CPP-PROFILE-0.9', '"CPP-PROFILE-0.9" is no published version'],
    [undefined, 'no identifier (nothing) is no published version'],
    [7, 'no identifier (7)'],
    [{}, 'no identifier (a JSON object)'],
    // Text from a target lands in every report form: only a short plain one is quoted.
    ['<script>alert(1)</script>', 'a text that is no profile identifier is no published version'],
  ])('names %j as no published version', (given, text) => {
    expect(profileNotice(given)).toContain(text);
    expect(profileNotice(given)).toContain(`this harness tests ${PROFILE_ID}`);
  });
});
