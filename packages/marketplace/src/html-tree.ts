import type { DefaultTreeAdapterTypes as T } from 'parse5';

/** Small helpers over parse5's tree, shared by the worker site and the simulated workers. */

export type HtmlNode = T.Node;
export type HtmlElement = T.Element;

export function isElement(node: HtmlNode): node is HtmlElement {
  return 'tagName' in node;
}

export function childNodes(node: HtmlNode): HtmlNode[] {
  if (node.nodeName === 'template' && 'content' in node) return (node as T.Template).content.childNodes;
  return 'childNodes' in node ? node.childNodes : [];
}

export function attr(el: HtmlElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

export const hasAttr = (el: HtmlElement, name: string): boolean => el.attrs.some((a) => a.name === name);

/** The text inside a node, as `textContent` gives it. */
export function textContent(node: HtmlNode): string {
  if (node.nodeName === '#text') return (node as T.TextNode).value;
  return childNodes(node).map(textContent).join('');
}

/** Every element under `node` in document order (depth first). */
export function* elements(node: HtmlNode): Generator<HtmlElement> {
  for (const c of childNodes(node)) {
    if (isElement(c)) {
      yield c;
      yield* elements(c);
    }
  }
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
