// A small strict scanner for the markup our reporters write (Node has no
// DOMParser): it fails on anything a conforming parser would read differently
// from what we meant: unbalanced or misnested tags, unquoted or repeated
// attributes, a raw `<` or a bare `&` in text, a <p> holding a block element.

export interface Tag {
  readonly name: string;
  readonly closing: boolean;
  readonly attributes: ReadonlyMap<string, string>;
}

export interface Markup {
  readonly tags: readonly Tag[];
  /** Character data between tags (still escaped), script/style contents excluded. */
  readonly texts: readonly string[];
  /** Contents of <script> elements. */
  readonly scripts: readonly string[];
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style']);
// Elements that implicitly close an open <p> in an HTML parser.
const BLOCK = new Set(['address', 'article', 'aside', 'details', 'div', 'dl', 'fieldset', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul']);
const ENTITY = /^&(?:[A-Za-z]+|#[0-9]+|#x[0-9A-Fa-f]+);/;

export function scanMarkup(source: string, mode: 'xml' | 'html'): Markup {
  const tags: Tag[] = [];
  const texts: string[] = [];
  const scripts: string[] = [];
  const open: string[] = [];
  let roots = 0;
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at offset ${i}: ${JSON.stringify(source.slice(Math.max(0, i - 40), i + 40))}`);
  };
  const entities = (chunk: string) => {
    for (let k = chunk.indexOf('&'); k !== -1; k = chunk.indexOf('&', k + 1)) if (!ENTITY.test(chunk.slice(k))) fail('bare &');
  };
  const text = (chunk: string) => {
    entities(chunk);
    if (chunk.includes('<')) fail('raw < in text');
    if (chunk.trim() !== '') {
      if (open.length === 0 && mode === 'xml') fail('text outside the root element');
      texts.push(chunk);
    }
  };

  while (i < source.length) {
    const lt = source.indexOf('<', i);
    text(source.slice(i, lt === -1 ? source.length : lt));
    if (lt === -1) break;
    i = lt;
    if (source.startsWith('<?xml', i) && i === 0 && mode === 'xml') {
      i = source.indexOf('?>', i) + 2;
      continue;
    }
    if (source.startsWith('<!DOCTYPE html>', i) && mode === 'html' && tags.length === 0) {
      i += '<!DOCTYPE html>'.length;
      continue;
    }
    const m = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)/.exec(source.slice(i));
    if (m === null) fail('not a tag');
    const [whole, slash, rawName] = m as RegExpExecArray & [string, string, string];
    const name = mode === 'html' ? rawName.toLowerCase() : rawName;
    i += whole.length;
    const attributes = new Map<string, string>();
    let selfClosing = false;
    for (;;) {
      const rest = source.slice(i);
      const end = /^\s*(\/?)>/.exec(rest);
      if (end !== null) {
        selfClosing = end[1] === '/';
        i += end[0].length;
        break;
      }
      const a = /^\s+([A-Za-z_:][A-Za-z0-9_:.-]*)(?:="([^"<]*)")?/.exec(rest);
      if (a === null || a[1] === undefined) fail('malformed attribute');
      const [all, attr, value] = a as RegExpExecArray & [string, string, string | undefined];
      if (value === undefined && mode === 'xml') fail('attribute without a value');
      if (attributes.has(attr)) fail(`repeated attribute ${attr}`);
      if (value !== undefined) entities(value);
      attributes.set(attr, value ?? '');
      i += all.length;
    }
    const closing = slash === '/';
    if (closing && (selfClosing || attributes.size > 0)) fail('malformed end tag');
    tags.push({ name, closing, attributes });
    if (closing) {
      if (open.pop() !== name) fail(`</${name}> does not close the open element`);
      continue;
    }
    if (mode === 'html' && BLOCK.has(name) && open.includes('p')) fail(`<${name}> inside <p>`);
    if (open.length === 0 && ++roots > 1) fail('second root element');
    if (selfClosing) {
      if (mode === 'html' && !VOID.has(name)) fail(`self-closed <${name}/>`);
      continue;
    }
    if (mode === 'html' && VOID.has(name)) continue;
    if (mode === 'html' && RAW_TEXT.has(name)) {
      const close = source.toLowerCase().indexOf(`</${name}`, i);
      if (close === -1) fail(`unclosed <${name}>`);
      if (name === 'script') scripts.push(source.slice(i, close));
      i = close + `</${name}>`.length;
      tags.push({ name, closing: true, attributes: new Map() });
      continue;
    }
    open.push(name);
  }
  if (open.length > 0) fail(`unclosed ${open.map((n) => `<${n}>`).join(' ')}`);
  if (roots !== 1) fail(`${roots} root elements`);
  return { tags, texts, scripts };
}

/** Decodes the five XML/HTML entities we write and numeric references. */
export function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref.startsWith('#x') || ref.startsWith('#X')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    return named[ref] ?? whole;
  });
}
