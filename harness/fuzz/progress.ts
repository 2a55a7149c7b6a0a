// Live progress of a campaign on stderr: on a TTY (and not CI) one line redrawn;
// otherwise a plain line every few seconds and at each change of phase.
import type { CampaignProgress, Phase } from './campaign.ts';
import type { CommandIo, OutputStream } from '../io.ts';

interface ProgressDisplay {
  update(progress: CampaignProgress): void;
  end(): void;
}

const PHASE: Readonly<Record<Phase, string>> = {
  explore: 'exploring',
  shrink: 'failure found, shrinking',
  replay: 'replaying the shrunk counterexample against fresh state',
  reduce: 'reducing it to what its cause needs',
  done: 'done',
};

/** Progress on `stream` (the command's stderr), as `env` says (CI). */
export function createProgressDisplay(stream: OutputStream, env: CommandIo['env'], plainEveryMs = 5000): ProgressDisplay {
  const live = stream.isTTY === true && !env.CI;
  let drawn = false;
  let lastPhase: Phase | undefined;
  let lastLine = 0;
  return {
    update(p) {
      const text = line(p);
      if (live) {
        stream.write(`\r\u001b[2K${text.slice(0, (stream.columns ?? 120) - 1)}`);
        drawn = true;
        return;
      }
      const now = performance.now();
      if (p.phase === 'done') return;
      if (p.phase !== lastPhase || now - lastLine >= plainEveryMs) {
        stream.write(`${text}\n`);
        lastPhase = p.phase;
        lastLine = now;
      }
    },
    end() {
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}

function line(p: CampaignProgress): string {
  const seconds = p.elapsedMs / 1000;
  const budget = p.budget.kind === 'time' ? `${seconds.toFixed(1)}s/${(p.budget.ms / 1000).toFixed(0)}s` : `${seconds.toFixed(1)}s, ${p.runs}/${p.budget.runs} runs`;
  const rate = Math.round(p.ops / Math.max(seconds, 0.001));
  return `fuzz ${PHASE[p.phase]}  ${budget}  runs ${p.runs}${p.shrinks > 0 ? ` (+${p.shrinks} shrinking)` : ''}${p.reductions > 0 ? ` (+${p.reductions} reducing)` : ''}  ops ${p.ops} (${rate} ops/s)  failures ${p.failures}`;
}
