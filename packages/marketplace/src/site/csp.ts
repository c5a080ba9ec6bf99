import { MTURK_SCRIPT_NAMES, mturkScriptPath } from './mturk-page.js';

/**
 * Content-Security-Policies of the worker site (pure).
 *
 * A requester's HTMLQuestion runs in a frame that is sandboxed twice: by the iframe's
 * `sandbox="allow-scripts allow-forms"` (no allow-same-origin: an opaque origin, so it
 * can read nothing of the site, not even its cookies) and by the `sandbox` directive of
 * its own CSP, which holds even when someone opens the frame's address in a tab of its
 * own. It loads nothing from the network, may only post its form to the marketplace,
 * and only the site may frame it. `base-uri 'none'` keeps a <base> element from
 * redirecting the form's relative action.
 */

export function sitePageCsp(frameOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    "img-src 'self' data:",
    `frame-src 'self'${frameOrigins.map((o) => ` ${o}`).join('')}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** A requester's HTMLQuestion in its frame: its inline scripts, and our copies of MTurk's two scripts (mturk-page.ts). */
export function htmlQuestionCsp(origin: string): string {
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${MTURK_SCRIPT_NAMES.map((n) => `${origin}${mturkScriptPath(n)}`).join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    `form-action ${origin}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    'sandbox allow-scripts allow-forms',
  ].join('; ');
}

/** The site's own pages inside a HIT frame (a QuestionForm, the "submitted" page). */
export function ownFrameCsp(origin: string, scriptHash?: string): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    ...(scriptHash ? [`script-src ${scriptHash}`] : []),
    `form-action ${origin}`,
    "frame-ancestors 'self'",
    "base-uri 'none'",
    `sandbox allow-forms${scriptHash ? ' allow-scripts' : ''}`,
  ].join('; ');
}

/** The iframe's sandbox: requester HTML gets an opaque origin; an ExternalQuestion runs in its own origin anyway. */
export function frameSandbox(kind: 'HTMLQuestion' | 'ExternalQuestion' | 'QuestionForm'): string {
  return kind === 'ExternalQuestion' ? 'allow-scripts allow-forms allow-same-origin allow-popups' : 'allow-scripts allow-forms';
}
