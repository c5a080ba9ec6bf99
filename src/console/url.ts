/**
 * One path segment of a URL holding `value` whatever it is (pure): percent-encoded, so
 * `/`, `?` and `#` stay inside it, and never a dot segment, which a browser resolves away
 * (`..` and `%2E%2E` alike): a value of only dots gets a trailing encoded space, which
 * the actions trim off again, so it reaches its own route and is refused there. Every
 * value the console places in a URL path goes through here (the `urlpart` helper of the
 * templates, and the links of the view model).
 */
export function urlSegment(value: string): string {
  const encoded = encodeURIComponent(value);
  return /^\.{1,2}$/.test(value) ? `${encoded}%20` : encoded;
}
