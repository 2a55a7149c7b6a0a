// The sentences the comparison's and the diff's views share.
import { diffFails, KIND_ORDER, type ChangeKind, type ReportDiff } from './diff.ts';

export const DISAGREE_TEXT = 'Requirements one implementation passed and another failed, both observed: the spec may be read two ways here, or one of them is wrong.';

export function list(ids: readonly string[], shown: number): string {
  return ids.length <= shown ? ids.join(', ') : `${ids.slice(0, shown).join(', ')} and ${ids.length - shown} more`;
}

export const KIND_HEADING: Readonly<Record<ChangeKind, string>> = {
  'new-failure': 'New failures',
  'coverage-lost': 'Coverage lost (observed before, not exercised now)',
  'new-warning': 'New warnings (failing now at a level that does not decide; they do not fail the diff)',
  fix: 'Fixes',
  'coverage-gained': 'Coverage gained (not exercised before, passing now)',
  changed: 'Other changes',
};

export function tally(diff: ReportDiff): string {
  const counts = KIND_ORDER.map((kind) => {
    const requirements = diff.requirements.filter((c) => c.kind === kind).length;
    const tests = diff.tests.filter((c) => c.kind === kind).length;
    return requirements + tests === 0 ? '' : `${KIND_WORD[kind]} ${requirements} requirement(s), ${tests} test(s)`;
  });
  return counts.filter((c) => c !== '').join('; ') || 'no change';
}

const KIND_WORD: Readonly<Record<ChangeKind, string>> = { 'new-failure': 'new failures', 'coverage-lost': 'coverage lost', 'new-warning': 'new warnings', fix: 'fixes', 'coverage-gained': 'coverage gained', changed: 'other changes' };

export function conclusion(diff: ReportDiff): string {
  const warned = [...diff.requirements, ...diff.tests].filter((c) => c.kind === 'new-warning').length;
  const note = warned > 0 ? `; ${warned} new warning(s), which do not fail it` : '';
  if (!diffFails(diff)) return `no new failure, and every deciding requirement observed before is still exercised${note}`;
  const lost = diff.requirements.filter((c) => c.kind === 'coverage-lost' && c.deciding).length;
  const fresh = [...diff.requirements, ...diff.tests].filter((c) => c.kind === 'new-failure').length;
  return [fresh > 0 ? 'new failures' : '', lost > 0 ? `${lost} deciding requirement(s) no longer exercised` : ''].filter((s) => s !== '').join(' and ') + note;
}
