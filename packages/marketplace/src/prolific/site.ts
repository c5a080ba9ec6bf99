import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { sitePageCsp } from '../site/csp.js';
import { checkCsrf, formBody, locals, loggedIn, sessions, type SiteContext } from '../site/http.js';
import type { ProlificService } from './service.js';

/**
 * The participant's side of Prolific on the worker site: the studies a logged-in worker
 * may take part in (/worker/prolific/studies), "Take part" (a submission takes a place and
 * the worker goes to the study's URL with PROLIFIC_PID, STUDY_ID and SESSION_ID), their
 * submissions, and the completion redirect `/prolific/submissions/complete?cc=<code>`
 * (Prolific's `app.prolific.com/submissions/complete?cc=`), which the study's page sends
 * the participant to at the end.
 */

const esc = (s: unknown): string =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

function page(res: Response, title: string, body: string, status = 200): void {
  const { csrf, worker } = locals(res);
  const who = worker
    ? `<nav aria-label="Main"><a href="/worker/hits">HITs</a> <a href="/worker/assignments">My work</a> <a href="/worker/qualifications">Qualifications</a> <a href="/worker/prolific/studies">Studies</a> <a href="/worker/prolific/submissions">My studies</a></nav>
<form method="post" action="/worker/logout" class="logout"><input type="hidden" name="_csrf" value="${esc(csrf)}"><span class="who">${esc(worker.displayName)}</span> <button type="submit">Log out</button></form>`
    : '';
  res
    .status(status)
    .set({
      'Content-Security-Policy': sitePageCsp(),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    })
    .type('html')
    .send(
      `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>${esc(title)} · qrelay marketplace</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/worker/static/site.css"></head>
<body><header class="top"><a class="brand" href="/worker/hits">qrelay marketplace</a>${who}</header><main>${body}</main></body></html>`,
    );
}

/** The site's session for routes outside /worker (inside, the site's pages have read it already). */
function sessionOnce(site: SiteContext): RequestHandler {
  const read = sessions(site);
  return (req, res, next) => (res.locals.session ? next() : read(req, res, next));
}

const workerId = (res: Response): string => locals(res).worker!.workerId;

/** Pages under /worker/prolific (mounted by mountWorkerSite after its own pages). */
export function prolificPagesRouter(site: SiteContext, service: ProlificService): Router {
  const r = express.Router();
  r.use('/prolific', sessionOnce(site), loggedIn(site));

  r.get('/prolific/studies', async (_req, res) => {
    const studies = await service.availableStudies(workerId(res));
    const { csrf } = locals(res);
    const rows = studies
      .map(({ study: s, placesLeft }) => {
        const id = String(s.id);
        return `<article class="hit-group"><h2>${esc(s.name)}</h2><p>${esc(s.description)}</p>
<p>${money(Number(s.reward))} · about ${esc(s.estimated_completion_time)} min · at most ${esc(s.maximum_allowed_time)} min · ${placesLeft} place${placesLeft === 1 ? '' : 's'} left</p>
<form method="post" action="/worker/prolific/studies/${esc(id)}/start"><input type="hidden" name="_csrf" value="${esc(csrf)}"><button type="submit">Take part</button></form></article>`;
      })
      .join('\n');
    page(res, 'Studies', `<h1>Studies</h1>${rows || '<p>There is no study for you right now. Come back later.</p>'}`);
  });

  r.post('/prolific/studies/:id/start', formBody, async (req, res) => {
    checkCsrf(req, res);
    const { url } = await service.startStudy(workerId(res), String(req.params.id));
    res.redirect(303, url);
  });

  r.get('/prolific/submissions', async (_req, res) => {
    const mine = await service.mySubmissions(workerId(res));
    const { csrf } = locals(res);
    const rows = mine
      .map(
        ({ submission: s, studyName, reward }) =>
          `<tr><td>${esc(studyName)}</td><td>${esc(s.status)}</td><td>${money(reward)}</td><td>${esc(s.started_at.toISOString())}</td><td>${esc(s.study_code ?? '')}</td><td>${
            s.status === 'ACTIVE'
              ? `<form method="post" action="/worker/prolific/submissions/${esc(s._id)}/return"><input type="hidden" name="_csrf" value="${esc(csrf)}"><button type="submit">Return</button></form>`
              : ''
          }</td></tr>`,
      )
      .join('\n');
    page(
      res,
      'My studies',
      `<h1>My studies</h1>${
        rows
          ? `<table><thead><tr><th>Study</th><th>Status</th><th>Reward</th><th>Started</th><th>Code</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
          : '<p>You have not taken part in a study yet.</p>'
      }`,
    );
  });

  r.post('/prolific/submissions/:id/return', formBody, async (req, res) => {
    checkCsrf(req, res);
    await service.returnSubmission(workerId(res), String(req.params.id));
    res.redirect(303, '/worker/prolific/submissions');
  });

  r.get('/prolific/submissions/complete', completion(service));
  return r;
}

function completion(service: ProlificService): RequestHandler {
  return async (req: Request, res: Response) => {
    const cc = typeof req.query.cc === 'string' ? req.query.cc : undefined;
    const done = await service.completeStudy(workerId(res), cc);
    if (!done) {
      return page(
        res,
        'No study in progress',
        '<h1>No study in progress</h1><p>You have no study in progress to complete. <a href="/worker/prolific/submissions">My studies</a></p>',
        409,
      );
    }
    const { submission: s, study } = done;
    page(
      res,
      'Study completed',
      `<h1>Thank you</h1><p>Your submission to “${esc(study.name)}” was recorded${s.study_code ? ` with the code ${esc(s.study_code)}` : ''}: it is ${esc(s.status)}.</p>
<p><a href="/worker/prolific/studies">More studies</a> · <a href="/worker/prolific/submissions">My studies</a></p>`,
    );
  };
}

/** `/prolific/submissions/complete?cc=`: the completion redirect, outside /worker as Prolific's is outside the study. */
export function prolificCompletionRouter(site: SiteContext, service: ProlificService): Router {
  const r = express.Router();
  r.get(
    '/prolific/submissions/complete',
    sessionOnce(site),
    (req, res, next) => {
      // not logged in: log in first, then come back here through the page under /worker
      if (locals(res).session.workerId === undefined) {
        const q = req.originalUrl.indexOf('?');
        return res.redirect(303, `/worker/prolific/submissions/complete${q < 0 ? '' : req.originalUrl.slice(q)}`);
      }
      next();
    },
    loggedIn(site),
    completion(service),
  );
  return r;
}
