// The task meta the runtime attaches to each test.
import type { TestResult } from '../report/model.ts';

declare module 'vitest' {
  interface TaskMeta {
    cpr?: TestResult;
  }
}

export {};
