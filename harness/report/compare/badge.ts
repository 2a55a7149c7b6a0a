// A report's verdict as a shields.io endpoint badge.
import type { Report, Verdict } from '../model.ts';

/** The shields.io endpoint format (https://shields.io/badges/endpoint-badge). */
interface EndpointBadge {
  readonly schemaVersion: 1;
  readonly label: string;
  readonly message: string;
  readonly color: string;
}

const BADGE_COLOR: Readonly<Record<Verdict, string>> = { conformant: 'brightgreen', incomplete: 'yellow', 'non-conformant': 'red', error: 'lightgrey' };

/** The verdict and the deciding requirements passed of all: "conformant 101/101", "non-conformant 3 failed, 98/101". */
export function endpointBadge(report: Report): EndpointBadge {
  const c = report.coverage;
  const failed = report.verdict === 'non-conformant' ? ` ${c.failed} failed,` : '';
  return { schemaVersion: 1, label: 'CPR conformance', message: `${report.verdict}${failed} ${c.passed}/${c.deciding}`, color: BADGE_COLOR[report.verdict] };
}
