import type { RunningMarketplace } from '@qrelay/marketplace';
import { Browser } from './browser.js';
import { decide, type Judgment, type OracleEntry } from './decide.js';
import type { SimWorker } from './draw.js';
import { fillPageForm, readPageForm } from './form.js';
import { itemTrace } from './page-events.js';
import type { PopulationProfile } from './population.js';
import { logNormal, seededRng, type Rng } from './random.js';

/**
 * The simulated crowd on the marketplace's Prolific side (issue 36): each simulated
 * worker, with the answer model it uses for HITs (decide.ts, page-events.ts), lists the
 * studies open to them (ProlificService.availableStudies, what the worker site's study
 * list shows), takes part (startStudy: the study URL with PROLIFIC_PID, STUDY_ID and
 * SESSION_ID), opens qrelay's task page over HTTP as a browser does (the study link
 * redirects to the page), reads its form as it reads a HIT page (form.ts), posts it to
 * the page's submit address, and reaches the completion URL it is redirected to
 * (`/prolific/submissions/complete?cc=`), whose code completes the submission as the
 * logged-in participant's browser would (completeStudy).
 *
 * Rounds: in each, every worker (in an order drawn from the seed) takes at most one study;
 * rounds go on until one finds no work. Deterministic under the population's seed on the
 * same studies. No quitting or returning here: every study taken is submitted.
 */

export interface ProlificCrowdOptions {
  profile: PopulationProfile;
  workers: readonly SimWorker[];
  oracle: Readonly<Record<string, OracleEntry>>;
  /** Upper bound on rounds (default 50). */
  maxRounds?: number;
}

export interface ProlificCrowdResult {
  started: number;
  completed: number;
  failed: number;
  /** Answers to items whose truth the oracle knows, and how many were right. */
  judged: number;
  correct: number;
  errors: string[];
}

const COMPLETE_PATH = '/prolific/submissions/complete';

function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Works the marketplace's open Prolific studies with the simulated workers until none has a place left for them. */
export async function workProlificStudies(running: RunningMarketplace, opts: ProlificCrowdOptions): Promise<ProlificCrowdResult> {
  const result: ProlificCrowdResult = { started: 0, completed: 0, failed: 0, judged: 0, correct: 0, errors: [] };
  const browser = new Browser();
  const seed = opts.profile.seed;
  const worked = new Map<string, number>();
  try {
    for (let round = 0; round < (opts.maxRounds ?? 50); round++) {
      let took = 0;
      for (const w of shuffled(opts.workers, seededRng(`${seed}:prolific:round:${round}`))) {
        const studyId = await studyFor(running, w.workerId);
        if (studyId === undefined) continue;
        took++;
        result.started++;
        const done = worked.get(w.workerId) ?? 0;
        worked.set(w.workerId, done + 1);
        try {
          const part = await takePart(
            running,
            browser,
            w,
            studyId,
            done,
            opts.profile,
            (key) => opts.oracle[key],
            seededRng(`${seed}:prolific:${w.workerId}:${done}`),
          );
          result.completed++;
          for (const j of part.judged) {
            const truth = opts.oracle[j.key]?.truth;
            if (truth === undefined) continue;
            result.judged++;
            if (j.answer === truth) result.correct++;
          }
        } catch (err) {
          result.failed++;
          result.errors.push(err instanceof Error ? err.message : String(err));
        }
      }
      if (took === 0) break;
    }
  } finally {
    browser.close();
  }
  return result;
}

/** What one worker's part in a study gave: their yes/no answers, and the simulated seconds it took. */
export interface StudyPart {
  judged: { key: string; answer: Judgment }[];
  seconds: number;
}

/** The open study a worker would take now (the oldest with a place left for them), if any. */
export async function studyFor(running: RunningMarketplace, workerId: string): Promise<string | undefined> {
  const open = (await running.prolific.availableStudies(workerId)).filter((s) => s.placesLeft > 0);
  const study = open[open.length - 1]; // the oldest first, as the HIT path takes the oldest HITs
  return study ? String(study.study['id']) : undefined;
}

/**
 * One worker takes part in a study: starts it, opens the task page, answers its form, posts
 * it and completes the submission with the completion URL's code. Throws when a step fails.
 */
export async function takePart(
  running: RunningMarketplace,
  browser: Browser,
  w: SimWorker,
  studyId: string,
  assignmentsDone: number,
  profile: PopulationProfile,
  oracleOf: (key: string) => OracleEntry | undefined,
  rng: Rng,
): Promise<StudyPart> {
  const { submissionId, url } = await running.prolific.startStudy(w.workerId, studyId);
  // the study link redirects to the task page, whose address carries the session
  const page = await browser.request(url);
  if (page.status < 200 || page.status > 299) throw new Error(`the task page of study ${studyId} answered ${page.status}`);
  const pageUrl = new URL(page.url);
  const session = pageUrl.searchParams.get('assignmentId') ?? submissionId;
  const turkSubmitTo = pageUrl.searchParams.get('turkSubmitTo');
  if (!turkSubmitTo) throw new Error(`the task page of study ${studyId} names no submit address`);
  const form = readPageForm(page.text);
  const answers = new Map<string, string>();
  const timers = new Map<string, number>();
  const events = new Map<string, Record<string, number>>();
  const comments = new Map<string, string>();
  const judged: { key: string; answer: Judgment }[] = [];
  let itemsDone = 0;
  let seconds = 0;
  for (const item of form.items) {
    const ms = logNormal(rng, w.medianItemSeconds, w.itemSigma) * 1000;
    timers.set(item.key, ms);
    seconds += ms / 1000;
    if (item.values.length === 0) continue;
    const entry = oracleOf(item.key);
    const view = { itemsDone: itemsDone++, assignmentsDone, ...(item.arguments ? { arguments: item.arguments } : {}) };
    const decided = decide(profile.seed, w, item.key, entry, view, profile);
    const value = item.values.includes(decided) ? decided : item.values[0]!;
    const trace = itemTrace(profile.seed, w, item.key, entry, item.hiddenText, profile);
    events.set(item.key, trace.events);
    if (trace.comment !== undefined) comments.set(item.key, trace.comment);
    answers.set(item.key, value);
    if (value === 'yes' || value === 'no') judged.push({ key: item.key, answer: value });
  }
  const fields = fillPageForm(form, { assignmentId: session, answers, timers, events, comments });
  // posted without following the redirect: the completion URL is the participant's, reached below
  const posted = await fetch(`${turkSubmitTo.replace(/\/+$/, '')}/mturk/externalSubmit`, {
    method: 'POST',
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
  const location = posted.headers.get('location');
  if (posted.status !== 303 || !location) throw new Error(`submitting session ${session} answered ${posted.status}`);
  const done = new URL(location, turkSubmitTo);
  if (done.pathname !== COMPLETE_PATH)
    throw new Error(`submitting session ${session} redirected to ${done.pathname}, not the completion URL`);
  const completed = await running.prolific.completeStudy(w.workerId, done.searchParams.get('cc') ?? undefined);
  if (completed?.submission._id !== session) throw new Error(`the completion code did not complete session ${session}`);
  return { judged, seconds };
}
