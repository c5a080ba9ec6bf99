import type { RequestHandler } from 'express';
import { sendProblem } from './problem.js';

/**
 * The requests a documented path (`/api/v1/batches/{batch}`) answers: each `{param}` one
 * segment, any letter case and an optional trailing slash, as Express routes match.
 */
export function pathPattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * 405 Method Not Allowed (with `Allow`) for a request whose path is one of the API's
 * routes but whose method is not one of that route's (TRACE, PUT on a GET route, ...);
 * a path that is no route stays 404. The routes come from the OpenAPI document, the
 * one list of what the API answers, plus the few routes it does not describe.
 */
export function methodNotAllowed(
  paths: () => Record<string, Record<string, unknown>>,
  extra: Record<string, string[]> = {},
): RequestHandler {
  let routes: { pattern: RegExp; methods: string[] }[] | undefined;
  const build = () => {
    const all: Record<string, Set<string>> = {};
    for (const [path, ops] of Object.entries(paths())) all[path] = new Set(Object.keys(ops).map((m) => m.toUpperCase()));
    for (const [path, methods] of Object.entries(extra)) all[path] = new Set([...(all[path] ?? []), ...methods]);
    return Object.entries(all).map(([path, methods]) => {
      // HEAD answers wherever GET does (Express does so by itself)
      if (methods.has('GET')) methods.add('HEAD');
      return { pattern: pathPattern(path), methods: [...methods].sort() };
    });
  };
  return (req, res, next) => {
    routes ??= build();
    const route = routes.find((r) => r.pattern.test(req.path));
    if (!route || route.methods.includes(req.method)) return next();
    res.setHeader('Allow', route.methods.join(', '));
    sendProblem(res, 405, 'Method Not Allowed', `${req.method} is not supported on ${req.path}: use ${route.methods.join(', ')}`);
  };
}
