// Published views (report.html, compare.md, diff.md) say nothing about the
// machine that wrote them: an absolute local path in them (a report folder, a
// target file, a CI runner's workspace) is shown by its last part only.

/** An absolute POSIX path standing as a word of its own: after the start, a space, `=` or a quote; never the path of a URL. */
const ABSOLUTE = /(^|[\s='"(])(\/(?!\/)[^\s'"()]*)/g;

/** `text` with every absolute path shortened to `…/` and its last part ("…/report.json"). */
export function withoutLocalPaths(text: string): string {
  return text.replace(ABSOLUTE, (_match, before: string, path: string) => `${before}${shortPath(path)}`);
}

function shortPath(path: string): string {
  const parts = path.split('/').filter((part) => part !== '');
  return parts.length === 0 ? path : `…/${parts.at(-1)}`;
}
