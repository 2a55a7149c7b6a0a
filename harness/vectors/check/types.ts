// What checking one pure case against an implementation gives: the verdict the
// implementation reached and, when it reached the expected verdict for the wrong
// reason or with the wrong output, what differed.
export interface CaseAnswer {
  readonly got: 'valid' | 'invalid';
  /** Set when the output differs from the case's expectation beyond the verdict. */
  readonly problem?: string;
  /** What the implementation said, for the report. */
  readonly detail?: string;
}

export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};
