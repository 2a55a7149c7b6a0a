// A Stryker ignorer (stryker.config.mjs "ignorers"): the words of a message a
// person reads, where no rule fixes them. A problem's `detail` is free text
// (RFC 9457 §3.1.4; PROFILE.md fixes the `code` beside it), and so are a paying
// application's rejection `message` and a violation's `message` (PROFILE.md
// §8.3: "human readable"; its code, path and registry ID are the rules). A
// mutant that changes only those words changes nothing a conforming client may
// rely on: it is reported as Ignored with this reason, never as a survivor. The
// code, the status, the path and every value beside the words are mutated as usual.
// Plain JavaScript: Stryker loads plugins with Node's own import.

export const REASON = 'free text for a reader (a problem detail, RFC 9457 §3.1.4; a rejection or violation message, PROFILE.md §8.3): no rule fixes its words, only the code beside them';

/** The reference's helpers that take free text, and the position of that text among their arguments. */
const TEXT_ARGUMENT = new Map([
  ['problem', 1],
  ['problemResponse', 1],
  ['failure', 1],
  ['reject', 1],
  ['failed', 0],
  ['notJson', 0],
]);

/** Object members that hold free text: `{ message: ... }`, `{ detail: ... }`. */
const TEXT_MEMBERS = new Set(['message', 'detail']);

function calleeName(call) {
  return call.callee.type === 'Identifier' ? call.callee.name : undefined;
}

function shouldIgnore(path) {
  const { node, parent, key, listKey } = path;
  if (parent?.type === 'CallExpression' && listKey === 'arguments' && TEXT_ARGUMENT.get(calleeName(parent)) === key) return REASON;
  if (parent?.type === 'ObjectProperty' && key === 'value' && !parent.computed) {
    const name = parent.key.type === 'Identifier' ? parent.key.name : parent.key.type === 'StringLiteral' ? parent.key.value : undefined;
    if (TEXT_MEMBERS.has(name) && (node.type === 'StringLiteral' || node.type === 'TemplateLiteral')) return REASON;
  }
  return undefined;
}

export const strykerPlugins = [{ kind: 'Ignore', name: 'free-text', value: { shouldIgnore } }];
