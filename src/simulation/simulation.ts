import { createHash } from 'node:crypto';
import {
  isDomainError,
  parseAnswerKey,
  settle,
  SiteKeys,
  statusOf,
  testOf,
  workFrameUrl,
  type FormFields,
  type HitSummary,
  type RunningMarketplace,
} from '@qrelay/marketplace';
import { decide, hasTurnedCareless, testAnswers, type Judgment, type OracleEntry } from './decide.js';
import { drawPopulation, type SimWorker } from './draw.js';
import { armOf, type ExperimentArm } from '../experiment/assign.js';
import { Browser } from './browser.js';
import { carriesOwnMark, fillPageForm, pageTemplate, readPageForm, type PageForm } from './form.js';
import { itemTrace } from './page-events.js';
import { studyFor, takePart } from './prolific.js';
import { WORKER_KINDS, type PopulationProfile, type WorkerKind } from './population.js';
import { exponential, geometric, logNormal, seededRng, type Rng } from './random.js';
import { Agenda } from './schedule.js';

/**
 * Simulated workers on a running marketplace. They find HITs with the worker site's own
 * functions (WorkerApi: blocks, qualification requirements and slot claims apply), take
 * qualification tests when a HIT asks for one, open the HIT's frame over HTTP like a
 * browser, read its form (docs/hit-page-contract.md), answer from their profile and the
 * oracle, and post the form to `<turkSubmitTo>/mturk/externalSubmit` over HTTP.
 *
 * Time: while it runs, the simulation holds the marketplace clock and moves it from one
 * simulated event to the next, no faster than the clock's speed (pacing: real time x
 * speed). So a day of work passes in seconds at speed 86400, and a simulation that
 * cannot keep up with that speed slows time down instead of letting workers miss their
 * deadlines. Events are handled one at a time in time order (ties: scheduling order),
 * and every draw comes from generators seeded by the population's seed, so a seed
 * replays the same run on the same HITs. Pausing stops time; stopping returns the
 * assignments simulated workers still hold and lets the clock run on by itself.
 */

export type SimulationState = 'empty' | 'ready' | 'running' | 'paused' | 'stopped';

export class SimulationError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type SimEvent =
  | { type: 'arrival' }
  | { type: 'look'; w: number }
  | {
      type: 'submit';
      w: number;
      assignmentId: string;
      action: string;
      fields: [string, string][];
      judged: { key: string; answer: Judgment }[];
    }
  | { type: 'return'; w: number; assignmentId: string }
  | { type: 'test'; w: number; typeId: string; answers: FormFields };

interface Runtime {
  worker: SimWorker;
  rng: Rng;
  active: boolean;
  remaining: number;
  /** The assignment being worked on (accepted, not yet submitted or returned). */
  holding?: string;
  /** Qualification types asked for in this run (one attempt each). */
  asked: Set<string>;
  /** Items done in the current visit (fatigue). */
  itemsThisVisit: number;
  /** Assignments worked in this run (careful-then-careless workers' change point). */
  assignmentsWorked: number;
  /** In a debate experiment: the arm given on the worker's first page of the run. */
  arm?: { arm: ExperimentArm; rank: number };
}

export interface KindTally {
  workers: number;
  submitted: number;
  /** Answers to items whose truth the oracle knows, and how many were right. */
  judged: number;
  correct: number;
  accuracy: number | null;
  /** Of the judged answers, how many said yes. */
  yes: number;
}

export interface SimulationProgress {
  state: SimulationState;
  seed?: string;
  population: number;
  oracleSize: number;
  clock: { now: string; speed: number; held: boolean };
  /** Marketplace time the current run started at, and how much has passed since (simulated and real seconds). */
  startedAt?: string;
  simulatedSeconds: number;
  realSeconds: number;
  workers: { active: number; visits: number; arrivalsWithoutIdleWorker: number; visitsWithoutWork: number };
  assignments: { accepted: number; submitted: number; returned: number; abandoned: number; late: number; failed: number };
  qualificationTests: { taken: number; granted: number; pending: number };
  byKind: Record<WorkerKind, KindTally>;
  errors: { count: number; last?: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Real milliseconds the simulation may lag behind its pace before it gives up catching up. */
const MAX_LAG_MS = 250;
/** Simulated seconds between two HITs of one visit (finding the next one). */
const BETWEEN_HITS_SECONDS = 15;
const PAGE_CACHE_SIZE = 256;
const LIST_PAGE = 50;

function emptyTally(): Record<WorkerKind, KindTally> {
  return Object.fromEntries(
    WORKER_KINDS.map((k) => [k, { workers: 0, submitted: 0, judged: 0, correct: 0, accuracy: null, yes: 0 }]),
  ) as Record<WorkerKind, KindTally>;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class Simulation {
  private state: SimulationState = 'empty';
  private profile: PopulationProfile | undefined;
  private workers: SimWorker[] = [];
  private readonly oracle = new Map<string, OracleEntry>();
  private runtimes: Runtime[] = [];
  private readonly agenda = new Agenda<SimEvent>();
  private arrivals: Rng = seededRng('');
  /** A debate experiment's seed (`simulate --experiment debate`), and the workers given an arm so far in this run. */
  private experiment: { seed: string; ranked: number } | undefined;
  private loopDone: Promise<void> | undefined;
  private holdsClock = false;
  private pace = { realMs: 0, simMs: 0, speed: 1 };
  private startedAtMs: number | undefined;
  private realStart = 0;
  private realSpent = 0;
  private counters = Simulation.zero();
  private readonly pages = new Map<string, PageForm>();
  private siteKeys: SiteKeys | undefined;
  private readonly browser = new Browser();

  constructor(private readonly running: RunningMarketplace) {}

  private static zero() {
    return {
      visits: 0,
      arrivalsWithoutIdleWorker: 0,
      visitsWithoutWork: 0,
      accepted: 0,
      submitted: 0,
      returned: 0,
      abandoned: 0,
      late: 0,
      failed: 0,
      testsTaken: 0,
      testsGranted: 0,
      testsPending: 0,
      errors: 0,
      lastError: undefined as string | undefined,
      byKind: emptyTally(),
    };
  }

  private get mp() {
    return this.running.marketplace;
  }

  private get keys(): SiteKeys {
    this.siteKeys ??= new SiteKeys(this.mp.settings.accessKeyId, this.mp.settings.secretAccessKey);
    return this.siteKeys;
  }

  /** The marketplace's own address, reachable from this process. */
  private get selfUrl(): string {
    return this.running.url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');
  }

  // ---- population and oracle

  /** Draws the population from its profile and creates (or updates) its worker accounts. */
  async loadPopulation(profile: PopulationProfile): Promise<SimWorker[]> {
    if (this.state === 'running' || this.state === 'paused')
      throw new SimulationError(409, 'the simulation is running: stop it before loading another population');
    const drawn = drawPopulation(profile);
    for (const w of drawn) {
      const existing = await this.running.workers.getWorker(w.workerId);
      if (existing) await this.running.workers.updateProfile(w.workerId, w.profile);
      else await this.running.workers.createWorker({ displayName: w.displayName, workerId: w.workerId, profile: w.profile });
    }
    this.profile = profile;
    this.workers = drawn;
    this.state = 'ready';
    this.counters = Simulation.zero();
    this.startedAtMs = undefined;
    this.realSpent = 0;
    return drawn;
  }

  population(): { profile?: PopulationProfile; workers: SimWorker[] } {
    return { ...(this.profile ? { profile: this.profile } : {}), workers: this.workers };
  }

  /**
   * Runs the next run as a debate experiment (undefined: not): each worker is given an arm
   * on their first HIT page, by the assignment rule (src/experiment/assign.ts) over the
   * order of those first pages, as `publish --experiment debate` gives it; a worker of the
   * no-debate arm reads every page as if its debate were hidden.
   */
  setExperiment(seed: string | undefined): void {
    if (this.state === 'running' || this.state === 'paused')
      throw new SimulationError(409, 'the simulation is running: stop it before changing the experiment');
    this.experiment = seed === undefined ? undefined : { seed, ranked: 0 };
  }

  /** The arms given in this run, in the order they were given (none outside an experiment). */
  experimentArms(): { workerId: string; arm: ExperimentArm; rank: number }[] {
    return this.runtimes.flatMap((r) => (r.arm ? [{ workerId: r.worker.workerId, ...r.arm }] : [])).sort((a, b) => a.rank - b.rank);
  }

  /** Replaces the oracle (or adds to it with `merge`); answers the number of keys it holds. */
  setOracle(entries: Record<string, OracleEntry>, merge = false): number {
    if (!merge) this.oracle.clear();
    for (const [key, entry] of Object.entries(entries)) this.oracle.set(key, entry);
    return this.oracle.size;
  }

  get oracleSize(): number {
    return this.oracle.size;
  }

  // ---- running

  /** Starts a run (or resumes a paused one). A new run starts from the seed again. */
  start(): void {
    if (this.state === 'empty' || !this.profile)
      throw new SimulationError(409, 'load a population first (PUT /admin/simulation/population)');
    if (this.state === 'running') return;
    const clock = this.mp.clock;
    if (!clock.held) {
      clock.hold();
      this.holdsClock = true;
    }
    // after holding: the run starts at the very time its first event happens
    if (this.state !== 'paused') this.newRun(clock.nowMs());
    this.pace = { realMs: performance.now(), simMs: clock.nowMs(), speed: clock.speed };
    this.realStart = performance.now();
    this.state = 'running';
    this.loopDone = this.loop();
    this.mp.logger.info(
      { seed: this.profile.seed, workers: this.workers.length, oracle: this.oracle.size, speed: clock.speed },
      'simulation started',
    );
  }

  /** Stops the workers where they are; the marketplace's time stands still until resumed or stopped. */
  async pause(): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'paused';
    await this.loopDone;
    this.realSpent += performance.now() - this.realStart;
  }

  /** Ends the run: the workers return what they hold, and the marketplace clock runs on by itself. */
  async stop(): Promise<void> {
    if (this.state !== 'running' && this.state !== 'paused') return;
    const wasRunning = this.state === 'running';
    this.state = 'stopped';
    await this.loopDone;
    if (wasRunning) this.realSpent += performance.now() - this.realStart;
    for (const r of this.runtimes) {
      if (r.holding === undefined) continue;
      await this.running.workers.returnAssignment(r.worker.workerId, r.holding).catch(() => undefined);
      r.holding = undefined;
    }
    if (this.holdsClock) {
      this.mp.clock.release();
      this.holdsClock = false;
    }
    this.browser.close();
    this.mp.logger.info({ submitted: this.counters.submitted }, 'simulation stopped');
  }

  private newRun(nowMs: number): void {
    const seed = this.profile!.seed;
    this.counters = Simulation.zero();
    for (const w of this.workers) this.counters.byKind[w.kind].workers++;
    this.runtimes = this.workers.map((worker) => ({
      worker,
      rng: seededRng(`${seed}:run:${worker.index}`),
      active: false,
      remaining: 0,
      asked: new Set(),
      itemsThisVisit: 0,
      assignmentsWorked: 0,
    }));
    this.arrivals = seededRng(`${seed}:arrivals`);
    if (this.experiment) this.experiment.ranked = 0;
    this.agenda.clear();
    this.agenda.push(nowMs, { type: 'arrival' });
    this.startedAtMs = nowMs;
    this.realSpent = 0;
  }

  private async loop(): Promise<void> {
    const clock = this.mp.clock;
    while (this.state === 'running') {
      const next = this.agenda.peek()!;
      const realNow = performance.now();
      if (clock.speed !== this.pace.speed || clock.nowMs() > this.pace.simMs + (realNow - this.pace.realMs) * clock.speed) {
        // the operator changed the speed or moved the clock forward: pace from here
        this.pace = { realMs: realNow, simMs: clock.nowMs(), speed: clock.speed };
      }
      let allowed = this.pace.simMs + (realNow - this.pace.realMs) * this.pace.speed;
      if (allowed > next.at + MAX_LAG_MS * this.pace.speed) {
        // working slower than the clock's speed: go on from here rather than rush later
        this.pace = { realMs: realNow, simMs: next.at, speed: this.pace.speed };
        allowed = next.at;
      }
      if (allowed < next.at) {
        clock.advanceTo(Math.floor(allowed));
        await sleep(Math.max(1, Math.min(50, (next.at - allowed) / this.pace.speed)));
        continue;
      }
      await this.step();
    }
  }

  /** Handles the next event of the agenda at its time. */
  private async step(): Promise<void> {
    const clock = this.mp.clock;
    const next = this.agenda.pop()!;
    clock.advanceTo(next.at);
    try {
      await this.handle(next.event, Math.max(next.at, clock.nowMs()));
    } catch (err) {
      this.counters.errors++;
      this.counters.lastError = errorText(err);
      this.mp.logger.warn({ err, event: next.event.type }, 'simulated worker step failed');
      if ('w' in next.event) await this.giveUp(this.runtimes[next.event.w]!);
    }
  }

  // ---- discrete-event mode (qrelay simulate)

  /**
   * Starts a run driven by its caller rather than by real time: the clock is held and
   * moves only with `runUntil`, so the order of work is decided in simulated time alone
   * and a seed replays the same run, whatever the machine's speed.
   */
  startStepped(): void {
    if (this.state === 'empty' || !this.profile)
      throw new SimulationError(409, 'load a population first (PUT /admin/simulation/population)');
    if (this.state === 'running' || this.state === 'paused') throw new SimulationError(409, 'a run is in progress: stop it first');
    const clock = this.mp.clock;
    if (!clock.held) {
      clock.hold();
      this.holdsClock = true;
    }
    this.newRun(clock.nowMs());
    this.state = 'paused';
  }

  /**
   * Handles every event up to `simMs` as fast as it can, then sets the clock to `simMs`
   * (stepped runs only). With `untilQuiet`, stops early, at the time of the event after
   * which no HIT has work left to take or in progress (the requester's turn); with
   * `untilSubmitted`, right after the first submission (the event a notified service's round
   * answers); answers the simulated time it stopped at.
   */
  async runUntil(simMs: number, opts: { untilQuiet?: boolean; untilSubmitted?: boolean } = {}): Promise<number> {
    if (this.state !== 'paused') throw new SimulationError(409, 'runUntil needs a stepped run (startStepped)');
    const started = performance.now();
    try {
      while (this.agenda.size > 0 && this.agenda.peek()!.at <= simMs) {
        const type = this.agenda.peek()!.event.type;
        await this.step();
        if (opts.untilQuiet && (type === 'submit' || type === 'return') && this.quiet()) return this.mp.clock.nowMs();
        if (opts.untilSubmitted && type === 'submit') return this.mp.clock.nowMs();
      }
      this.mp.clock.advanceTo(simMs);
      return this.mp.clock.nowMs();
    } finally {
      this.realSpent += performance.now() - started;
    }
  }

  /** No HIT of the marketplace has a slot open or an assignment in progress (only open HITs can: store/hits.ts). */
  quiet(): boolean {
    const now = this.mp.clock.now();
    for (const hit of this.mp.hits.open()) {
      if (hit.disposed || hit.expiration.getTime() <= now.getTime()) continue;
      if (hit.assignments.some((a) => a.status === 'Accepted')) return false;
      if (statusOf(settle(hit, now), now) === 'Assignable') return false;
    }
    return true;
  }

  /** The drawn workers of the loaded population, by worker id. */
  workerById(workerId: string): SimWorker | undefined {
    return this.workers.find((w) => w.workerId === workerId);
  }

  private handle(event: SimEvent, now: number): Promise<void> {
    switch (event.type) {
      case 'arrival':
        return Promise.resolve(this.arrive(now));
      case 'look':
        return this.look(this.runtimes[event.w]!, now);
      case 'submit':
        return this.submit(this.runtimes[event.w]!, event, now);
      case 'return':
        return this.giveBack(this.runtimes[event.w]!, event.assignmentId, now);
      case 'test':
        return this.finishTest(this.runtimes[event.w]!, event.typeId, event.answers, now);
    }
  }

  private arrive(now: number): void {
    const profile = this.profile!;
    this.agenda.push(now + Math.max(1, Math.round(exponential(this.arrivals, profile.arrivalsPerHour / 3_600_000))), { type: 'arrival' });
    const idle = this.runtimes.filter((r) => !r.active);
    if (idle.length === 0) {
      this.counters.arrivalsWithoutIdleWorker++;
      return;
    }
    const r = idle[Math.floor(this.arrivals.next() * idle.length)]!;
    r.active = true;
    r.itemsThisVisit = 0;
    r.remaining = geometric(r.rng, profile.hitsPerVisit);
    this.counters.visits++;
    this.agenda.push(now, { type: 'look', w: r.worker.index });
  }

  /** After a failed step: the worker returns what they hold and leaves. */
  private async giveUp(r: Runtime): Promise<void> {
    if (r.holding !== undefined) await this.running.workers.returnAssignment(r.worker.workerId, r.holding).catch(() => undefined);
    this.leave(r);
  }

  private leave(r: Runtime): void {
    r.active = false;
    r.remaining = 0;
    r.holding = undefined;
  }

  private next(r: Runtime, now: number): void {
    r.remaining--;
    if (r.remaining <= 0) return this.leave(r);
    this.agenda.push(now + Math.round(logNormal(r.rng, BETWEEN_HITS_SECONDS, 0.5) * 1000), { type: 'look', w: r.worker.index });
  }

  /** Finds a HIT the worker may take (or a qualification to ask for first), accepts it and opens it. */
  private async look(r: Runtime, now: number): Promise<void> {
    const workerId = r.worker.workerId;
    let askable: string | undefined;
    // the oldest HITs first, a page at a time, as a person scrolls the list
    for (let after: string | undefined, page = 0; page < 100; page++) {
      const hits = await this.running.workers.listAvailableHits(workerId, {
        limit: LIST_PAGE,
        ...(after !== undefined ? { afterHitId: after } : {}),
      });
      for (const hit of hits.filter((h) => h.canAccept)) {
        let assignmentId: string;
        try {
          assignmentId = (await this.running.workers.acceptHit(workerId, hit.hitId)).assignmentId;
        } catch (err) {
          if (isDomainError(err)) continue; // taken meanwhile, or the rules say no: the next one
          throw err;
        }
        this.counters.accepted++;
        r.holding = assignmentId;
        return this.work(r, hit, assignmentId, now);
      }
      askable ??= this.qualificationToAsk(r, hits);
      if (hits.length < LIST_PAGE) break;
      after = hits[hits.length - 1]!.hitId;
    }
    if (await this.workStudy(r, now)) return;
    if (askable) return this.askQualification(r, askable, now);
    this.counters.visitsWithoutWork++;
    this.leave(r);
  }

  /**
   * A worker with no HIT to take works an open Prolific study of the marketplace, if it has
   * one (issue 36; prolific.ts): starts it, answers qrelay's task page over HTTP, posts it and
   * completes the submission, then looks for more work once the page's time has passed.
   * Counted as an accepted and a submitted assignment. First a cheap check: a run without
   * active studies (MTurk only) goes on exactly as before, its draws untouched.
   */
  private async workStudy(r: Runtime, now: number): Promise<boolean> {
    if (!(await this.running.prolific.models.studies.exists({ status: 'ACTIVE' }))) return false;
    const w = r.worker;
    const studyId = await studyFor(this.running, w.workerId);
    if (studyId === undefined) return false;
    this.counters.accepted++;
    const part = await takePart(
      this.running,
      this.browser,
      w,
      studyId,
      r.assignmentsWorked++,
      this.profile!,
      (key) => this.oracle.get(key),
      r.rng,
    );
    this.countSubmitted(w, part.judged);
    this.next(r, now + Math.round(part.seconds * 1000));
    return true;
  }

  private qualificationToAsk(r: Runtime, hits: HitSummary[]): string | undefined {
    for (const h of hits) {
      if (h.unmetRequirements.length === 0 || !h.unmetRequirements.every((u) => u.requestable)) continue;
      const id = h.unmetRequirements.find((u) => !r.asked.has(u.qualificationTypeId))?.qualificationTypeId;
      if (id !== undefined) return id;
    }
    return undefined;
  }

  private async askQualification(r: Runtime, typeId: string, now: number): Promise<void> {
    r.asked.add(typeId);
    const outcome = await this.running.workers.requestQualification(r.worker.workerId, typeId).catch((err: unknown) => {
      if (isDomainError(err)) return undefined; // e.g. no retry allowed: look for other work
      throw err;
    });
    if (outcome?.status === 'test') {
      const stored = await testOf(this.mp, typeId);
      const key = stored?.answerKey ? parseAnswerKey(stored.answerKey) : undefined;
      const answers = testAnswers(outcome.test, key, r.worker.qualificationSkill, r.rng);
      const seconds = outcome.test.questions.reduce((s) => s + logNormal(r.rng, r.worker.medianItemSeconds, r.worker.itemSigma), 0);
      this.agenda.push(now + Math.round(seconds * 1000), { type: 'test', w: r.worker.index, typeId, answers });
      return;
    }
    if (outcome?.status === 'pending') this.counters.testsPending++;
    this.agenda.push(now + 1000, { type: 'look', w: r.worker.index });
  }

  private async finishTest(r: Runtime, typeId: string, answers: FormFields, now: number): Promise<void> {
    this.counters.testsTaken++;
    try {
      const outcome = await this.running.workers.submitQualificationTest(r.worker.workerId, typeId, answers);
      if (outcome.status === 'granted') this.counters.testsGranted++;
      else this.counters.testsPending++;
    } catch (err) {
      if (!isDomainError(err)) throw err; // the test ran out, or its type was deleted: move on
    }
    this.agenda.push(now + 1000, { type: 'look', w: r.worker.index });
  }

  /** Opens the HIT's frame as a browser would, decides the answers and what to do with the assignment. */
  private async work(r: Runtime, hit: HitSummary, assignmentId: string, now: number): Promise<void> {
    const w = r.worker;
    const url = workFrameUrl(this.keys, this.selfUrl, { assignmentId, hitId: hit.hitId, workerId: w.workerId });
    const { status, text: html } = await this.browser.request(url);
    if (status < 200 || status > 299) throw new Error(`the HIT frame of ${assignmentId} answered ${status}`);
    const turkSubmitTo = new URL(url).searchParams.get('turkSubmitTo')!;
    const form = this.readPage(html, [turkSubmitTo, assignmentId, w.workerId]);
    const answers = new Map<string, string>();
    const timers = new Map<string, number>();
    const events = new Map<string, Record<string, number>>();
    const comments = new Map<string, string>();
    const judged: { key: string; answer: Judgment }[] = [];
    let seconds = 0;
    const assignmentsDone = r.assignmentsWorked++;
    if (this.experiment && r.arm === undefined) {
      const rank = this.experiment.ranked++;
      r.arm = { arm: armOf(this.experiment.seed, rank), rank };
    }
    // the no-debate arm's page has no debate: its worker reads none
    const seesDebate = r.arm?.arm !== 'no-debate';
    // past their change point a careful-then-careless worker no longer reads: the fast workers' pace
    const pace = hasTurnedCareless(w, { assignmentsDone }) ? this.profile!.workTime.fastFactor : 1;
    for (const item of form.items) {
      const ms = logNormal(r.rng, w.medianItemSeconds, w.itemSigma) * 1000 * pace;
      timers.set(item.key, ms);
      seconds += ms / 1000;
      if (item.values.length === 0) continue;
      const view = {
        itemsDone: r.itemsThisVisit++,
        assignmentsDone,
        ...(item.arguments && seesDebate ? { arguments: item.arguments } : {}),
      };
      const decided = decide(this.profile!.seed, w, item.key, this.oracle.get(item.key), view, this.profile!);
      const value = item.values.includes(decided) ? decided : item.values[0]!;
      const trace = itemTrace(this.profile!.seed, w, item.key, this.oracle.get(item.key), item.hiddenText, this.profile!);
      events.set(item.key, trace.events);
      if (trace.comment !== undefined) comments.set(item.key, trace.comment);
      answers.set(item.key, value);
      if (value === 'yes' || value === 'no') judged.push({ key: item.key, answer: value });
    }
    if (form.items.length === 0) seconds = logNormal(r.rng, w.medianItemSeconds, w.itemSigma);
    const fate = r.rng.next();
    const profile = this.profile!;
    const quits = w.kind === 'quitter' ? { abandonRate: profile.quitRate / 2, returnRate: profile.quitRate / 2 } : profile;
    if (fate < quits.abandonRate) {
      // walks away: the marketplace abandons the assignment at its deadline
      this.counters.abandoned++;
      return this.leave(r);
    }
    if (fate < quits.abandonRate + quits.returnRate) {
      this.agenda.push(now + Math.round(seconds * 1000 * r.rng.next()), { type: 'return', w: w.index, assignmentId });
      return;
    }
    const fields = fillPageForm(form, { assignmentId, answers, timers, events, comments });
    this.agenda.push(now + Math.round(seconds * 1000), {
      type: 'submit',
      w: w.index,
      assignmentId,
      action: `${turkSubmitTo.replace(/\/+$/, '')}/mturk/externalSubmit`,
      fields,
      judged,
    });
  }

  /**
   * The same page (every assignment of a HIT shows it) is read once: a page names its own
   * assignment in places (its submit address, its ids), so it is read as its template
   * (form.ts pageTemplate) and kept under that text; the filled-in form names the assignment
   * itself. Each page used to be read anew (a 46 KB parse per assignment in the paper's batch).
   */
  private readPage(html: string, own: readonly string[]): PageForm {
    const template = pageTemplate(html, own);
    const key = createHash('sha1').update(template).digest('base64');
    let form = this.pages.get(key);
    if (!form) {
      form = readPageForm(template);
      if (carriesOwnMark(form)) return readPageForm(html);
      if (this.pages.size >= PAGE_CACHE_SIZE) this.pages.delete(this.pages.keys().next().value!);
      this.pages.set(key, form);
    }
    return form;
  }

  /** A submitted assignment (or study submission) and its answers, in the worker kind's tally. */
  private countSubmitted(w: SimWorker, judged: readonly { key: string; answer: Judgment }[]): void {
    this.counters.submitted++;
    const tally = this.counters.byKind[w.kind];
    tally.submitted++;
    for (const j of judged) {
      const truth = this.oracle.get(j.key)?.truth;
      if (truth === undefined) continue;
      tally.judged++;
      if (j.answer === truth) tally.correct++;
      if (j.answer === 'yes') tally.yes++;
    }
  }

  private async submit(r: Runtime, e: Extract<SimEvent, { type: 'submit' }>, now: number): Promise<void> {
    r.holding = undefined;
    const { status } = await this.browser.request(e.action, { method: 'POST', form: new URLSearchParams(e.fields).toString() });
    if (status >= 200 && status <= 299) {
      this.countSubmitted(r.worker, e.judged);
    } else if (status === 404 || status === 410) {
      this.counters.late++; // the deadline passed while the worker was at it
    } else {
      this.counters.failed++;
      this.counters.lastError = `submitting ${e.assignmentId} answered ${status}`;
    }
    this.next(r, now);
  }

  private async giveBack(r: Runtime, assignmentId: string, now: number): Promise<void> {
    r.holding = undefined;
    await this.running.workers.returnAssignment(r.worker.workerId, assignmentId).then(
      () => void this.counters.returned++,
      (err: unknown) => {
        if (!isDomainError(err)) throw err;
      },
    );
    this.next(r, now);
  }

  // ---- progress

  progress(): SimulationProgress {
    const clock = this.mp.clock;
    const nowMs = clock.nowMs();
    const c = this.counters;
    const byKind = Object.fromEntries(
      Object.entries(c.byKind).map(([k, t]) => [k, { ...t, accuracy: t.judged > 0 ? t.correct / t.judged : null }]),
    ) as Record<WorkerKind, KindTally>;
    const real = this.realSpent + (this.state === 'running' ? performance.now() - this.realStart : 0);
    return {
      state: this.state,
      ...(this.profile ? { seed: this.profile.seed } : {}),
      population: this.workers.length,
      oracleSize: this.oracle.size,
      clock: { now: new Date(nowMs).toISOString(), speed: clock.speed, held: clock.held },
      ...(this.startedAtMs !== undefined ? { startedAt: new Date(this.startedAtMs).toISOString() } : {}),
      simulatedSeconds: this.startedAtMs !== undefined ? Math.max(0, (nowMs - this.startedAtMs) / 1000) : 0,
      realSeconds: real / 1000,
      workers: {
        active: this.runtimes.filter((r) => r.active).length,
        visits: c.visits,
        arrivalsWithoutIdleWorker: c.arrivalsWithoutIdleWorker,
        visitsWithoutWork: c.visitsWithoutWork,
      },
      assignments: {
        accepted: c.accepted,
        submitted: c.submitted,
        returned: c.returned,
        abandoned: c.abandoned,
        late: c.late,
        failed: c.failed,
      },
      qualificationTests: { taken: c.testsTaken, granted: c.testsGranted, pending: c.testsPending },
      byKind,
      errors: { count: c.errors, ...(c.lastError !== undefined ? { last: c.lastError } : {}) },
    };
  }
}
