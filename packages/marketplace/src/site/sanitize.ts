import { parseFragment } from 'parse5';
import { attr, childNodes, escapeHtml, isElement, type HtmlNode } from '../html-tree.js';

/**
 * QuestionForm FormattedContent (an XHTML subset written by the requester) made safe for
 * the worker site: parsed as HTML, then rebuilt from a list of harmless elements with no
 * attributes except table spans. Links keep only their text, images and media disappear,
 * scripts, styles, forms and frames are dropped with their content; anything else keeps
 * only its text. The result cannot run code or load anything.
 */

const KEPT = new Set([
  'abbr',
  'address',
  'b',
  'big',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'dfn',
  'div',
  'dl',
  'dt',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'ins',
  'kbd',
  'li',
  'ol',
  'p',
  'pre',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'tt',
  'u',
  'ul',
  'var',
]);
const VOID = new Set(['br', 'hr', 'col']);
const DROPPED = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'img',
  'audio',
  'video',
  'source',
  'track',
  'svg',
  'math',
  'link',
  'meta',
  'base',
  'title',
  'head',
  'noscript',
  'template',
  'canvas',
  'map',
  'area',
  'picture',
]);

function render(node: HtmlNode): string {
  if (node.nodeName === '#text') return escapeHtml((node as { value: string }).value);
  if (!isElement(node)) return ''; // comments, doctypes
  const tag = node.tagName.toLowerCase();
  if (DROPPED.has(tag)) return '';
  const inner = childNodes(node).map(render).join('');
  if (!KEPT.has(tag)) return inner;
  let attrs = '';
  if (tag === 'td' || tag === 'th') {
    for (const name of ['colspan', 'rowspan']) {
      const v = attr(node, name);
      if (v !== undefined && /^\d{1,3}$/.test(v)) attrs += ` ${name}="${v}"`;
    }
  }
  return VOID.has(tag) ? `<${tag}${attrs}>` : `<${tag}${attrs}>${inner}</${tag}>`;
}

export function sanitizeFormattedContent(xhtml: string): string {
  return childNodes(parseFragment(xhtml)).map(render).join('');
}
