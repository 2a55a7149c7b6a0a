import { createHttpRole } from './harness/adapters/http.ts';
import { runCampaign } from './harness/fuzz/index.ts';
import { serveReference } from './harness/bench/served.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
const s = await serveReference({ seed: 'x', cpus: '1' });
const role = createHttpRole({ baseUrl: s.url, ca: s.ca });
const outDir = mkdtempSync(join(tmpdir(), 'cp-'));
const session = new Session(); session.connect();
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 200 });
const out: string[] = [];
for (let i = 0; i < 10; i++) {
  if (i === 5) await session.post('Profiler.start');
  const c0 = process.cpuUsage(); const w0 = performance.now();
  const r = await runCampaign({ operator: role, seed: 2 + i, budget: { kind: 'time', ms: 2000 }, shrinkMs: 1000, outDir, targetName: 'x', lanes: 8, races: 'on' } as any);
  const c1 = process.cpuUsage(c0); const wall = performance.now() - w0;
  out.push(`${((c1.user + c1.system) / r.ops).toFixed(0)}us/${Math.round(r.ops / wall * 1000)}`);
}
const { profile } = await session.post('Profiler.stop');
writeFileSync('/tmp/warm.cpuprofile', JSON.stringify(profile));
console.log(out.join(' '));
await role.close(); await s.close(); process.exit(0);
