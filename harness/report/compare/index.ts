// Reports side by side: several implementations in one requirement matrix
// (matrix.ts), and two runs of one implementation (diff.ts); each rendered as
// Markdown, HTML and terminal lines, and a report's verdict as a badge.
export { endpointBadge } from './badge.ts';
export { diffFails, diffReports } from './diff.ts';
export { compareHtml } from './html.ts';
export type { CompareInput } from './input.ts';
export { compareMarkdown, diffMarkdown } from './markdown.ts';
export { compareReports } from './matrix.ts';
export { compareText, diffText } from './text.ts';
