import { createHash } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { Config } from '../config.js';
import type { EscalatedCase, Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import type { Logger } from '../log.js';
import { marketplaceDb, NO_CHAOS } from '@qrelay/marketplace';
import { startMarketplaceWithSimulation, type SimulatedMarketplace } from './marketplace.js';
import type { SimWorker } from './draw.js';
import type { ExperimentArm } from '../experiment/assign.js';
import type { PopulationProfile } from './population.js';
import { collectBatch } from '../pipeline/collect.js';
import { createPipelineContext, type PipelineContext } from '../pipeline/context.js';
import { publishBatch } from '../pipeline/publish.js';
import { recollectOf } from '../pipeline/redundancy.js';
import { softBlockedWorkers } from '../pipeline/blocked-qualification.js';
import { forgetTargetReputation } from '../pipeline/reputation.js';
import { requireBatch } from '../batches/index.js';
import { itemCases, visibleRecords } from '../pipeline/records.js';
import { resolveSettings, type PublishRequest } from '../pipeline/settings.js';
import { claimCopyName, copyBatch, deleteBatchData, prepareInPlace, type CopyResult } from './copy.js';
import { simulationOracle } from './oracle.js';
import { startEventReceiver, type EventReceiver } from './event-receiver.js';
import { hitsToPoll } from '../pipeline/round-poll.js';
import { NOTIFIED_ROUNDS_UP_TO, roundRuns } from './round-schedule.js';

/**
 * `qrelay simulate`'s run (the imperative shell): a private marketplace (the real
 * marketplace code on its own database, its own port and its own held clock), the
 * simulated copy of the batch published there through the real MTurk client over HTTP,
 * the population working through the worker site's pages and form posts, and collection
 * rounds (reconcile, review, extra assignments, aggregation) exactly as `qrelay review`
 * runs them. It is a discrete-event simulation: the population's events run up to the next
 * round's simulated time, then the round runs while time stands still, so the order of
 * everything is decided in simulated time alone and a seed replays the same run.
 */

export interface SimulateRequest {
  source: string;
  name: string;
  replace: boolean;
  /** The population, its seed already the simulation's. */
  population: PopulationProfile;
  /** True labels by `truthKey(query_id, chunk_id)`; none: the population's per-item model. */
  truth?: ReadonlyMap<string, Judgment>;
  hideDebate?: boolean;
  /**
   * A debate experiment in the one simulated copy (`simulate --experiment debate`): the
   * pages carry the debate, each worker is given an arm on their first page by the
   * experiment's rule (seeded with the copy's seed, as publish --experiment seeds it), and
   * workers of the no-debate arm read the pages as if their debate were hidden.
   */
  experiment?: 'debate';
  /** Overrides the source's redundancy (`simulate --redundancy`): forecast adaptive redundancy before publishing with it. */
  redundancy?: 'fixed' | 'adaptive';
  /** Overrides the source's re-collection of lost votes (`simulate --recollect`; default: the source's, the preset's for a draft). */
  recollect?: 'when-undecided' | 'always';
  /** Worker-level decisions on or off (default: the source's setting, on for a draft). */
  workerDecisions?: boolean;
  /** Adaptive attention checks on or off (default: the source's setting, the preset's for a draft); on: the starter pool sized for the population. */
  adaptiveChecks?: boolean;
  /** Simulate the batch itself rather than a copy (the demo; `name` is `source`, and must be a draft or a simulated batch). */
  inPlace?: boolean;
  /** Longest simulated time between two collection rounds (ROUND_SECONDS, or PROTOCOL_ROUND_SECONDS without worker-level decisions); a round also runs as soon as all open work is done. */
  roundSeconds?: number;
  /** Simulated days after which a batch still missing votes is given up on (default 60). */
  maxDays?: number;
  /**
   * Keep the private marketplace's database when the run completes (the demo hands its
   * records over to the bundled marketplace, then drops it: src/demo/stages/hand-over.ts).
   */
  keepMarketplace?: boolean;
}

export interface SimulateEnv {
  connection: Connection;
  config: Config;
  logger: Logger;
  progress?: (line: string) => void;
  /** Told once the copy's HITs are on the private marketplace. */
  onPublished?: (hits: number, quoteCents: number) => void;
  /** Told after every collection round (items with their votes, items, simulated seconds so far). */
  onRound?: (complete: number, items: number, simulatedSeconds: number) => void;
  /** Called between rounds; throws to stop the run (Ctrl-C). */
  checkpoint?: () => void;
}

export interface SimulationRun {
  copy: CopyResult;
  /** The copy's cases by item id (its report need not read them back). */
  cases: ReadonlyMap<string, EscalatedCase>;
  /** The copy's pipeline context (its clock stopped where the simulation ended). */
  ctx: PipelineContext;
  workers: SimWorker[];
  /** In a debate experiment: its seed (the copy's) and every worker's arm, in the order the arms were given. */
  experiment?: { seed: string; arms: { workerId: string; arm: ExperimentArm; rank: number }[] };
  /** Workers blocked on the private marketplace when the run ended (CreateWorkerBlock, or qrelay's blocked qualification). */
  blocked: Set<string>;
  rounds: number;
  simulatedSeconds: number;
  wallSeconds: number;
  /** Real seconds spent copying the source, publishing the copy, by the simulated crowd, and by the collection rounds. */
  copyWallSeconds: number;
  publishWallSeconds: number;
  crowdWallSeconds: number;
  roundsWallSeconds: number;
}

/**
 * Simulated seconds between two collection rounds at most. The service (`qrelay serve`)
 * runs a round as soon as an MTurk notification names a HIT (the `pipeline.reconcile` job,
 * src/jobs/pipeline.ts), besides its round every minute. The simulation receives the same
 * notifications (event-receiver.ts), so with worker-level decisions a batch of up to
 * NOTIFIED_ROUNDS_UP_TO planned assignments runs a round after each submission, NOTIFIED_ROUND_MS
 * later (decisions 0010, 0012): a worker who turns careless is stopped when the service would stop
 * them, before their next HIT if the evidence suffices. The rounds of larger batches follow
 * round-schedule.ts. Otherwise a round runs at least this often, and as soon as all open work
 * is done.
 */
export const ROUND_SECONDS = 600;

/**
 * Simulated milliseconds from a submission to the round its notification queues: the job
 * scheduler looks for due jobs every 5 seconds (`processEvery`, src/jobs/agenda.ts).
 * Submissions in between are reviewed by the same round.
 */
export const NOTIFIED_ROUND_MS = 5_000;

/**
 * Without worker-level decisions (the DREAM protocol's per-assignment review, where the
 * timing of a review changes nothing but when extra assignments are asked for), rounds
 * keep the two simulated hours the population was calibrated with against the DREAM study
 * (test/simulation/calibration.test.ts).
 */
export const PROTOCOL_ROUND_SECONDS = 7200;

/**
 * CreateHIT calls in flight at once on the private marketplace. Each call waits mostly on
 * the marketplace's writes to the database, so more of them at once overlap those waits;
 * a HIT's id there depends on its request token alone (idSeed), not on the order of the
 * calls, so the simulation stays the same under a seed.
 */
const PRIVATE_PUBLISH_CONCURRENCY = 16;

/** The private marketplace's database: one per simulated batch name, emptied before and after a run. */
export function privateConnection(connection: Connection, name: string): Connection {
  const tag = createHash('sha256').update(`simulate:${name}`).digest('hex').slice(0, 10);
  return connection.useDb(`${connection.name}_sim_${tag}`, { useCache: true });
}

async function dropPrivate(connection: Connection): Promise<void> {
  await marketplaceDb(connection).dropDatabase();
}

/** The source batch's publishing options, for the copy (a draft source: the `dream` preset). */
async function publishRequestFor(
  ctx: PipelineContext,
  source: string,
  target: string,
  hideDebate: boolean | undefined,
  collection: Pick<SimulateRequest, 'redundancy' | 'recollect'>,
  workerDecisions: boolean | undefined,
  adaptive?: { on: boolean; expectedWorkers: number },
): Promise<PublishRequest> {
  const doc = await requireBatch(ctx, source);
  const s = doc.settings;
  const { redundancy } = collection;
  const recollect = collection.recollect ?? (s ? recollectOf(s) : undefined);
  const decisions = workerDecisions ?? s?.review.workerDecisions;
  // adaptive checks as asked (sized for the simulated population), else as the source was published
  const checks = adaptive
    ? { adaptiveChecks: adaptive.on, ...(adaptive.on && { expectedWorkers: adaptive.expectedWorkers }) }
    : s?.layout.adaptive
      ? { adaptiveChecks: true, expectedWorkers: s.layout.adaptive.expectedWorkers }
      : {};
  if (!s)
    return {
      target,
      concurrency: PRIVATE_PUBLISH_CONCURRENCY,
      preset: 'dream',
      seed: source,
      ...(hideDebate !== undefined && { hideDebate }),
      ...(redundancy && { redundancy }),
      ...(recollect && { recollect }),
      ...(decisions !== undefined && { workerDecisions: decisions }),
      ...checks,
    };
  return {
    target,
    concurrency: PRIVATE_PUBLISH_CONCURRENCY,
    preset: s.presetName,
    seed: s.seed,
    itemsPerHit: s.preset.itemsPerHit,
    checksPerHit: s.preset.checksPerHit,
    assignments: s.voteTarget,
    hideDebate: hideDebate ?? s.preset.hideDebate,
    onFailure: s.review.onFailure,
    ...(s.review.rejectFromFailures !== undefined && { rejectFromFailures: s.review.rejectFromFailures }),
    ...(s.review.workerStop !== undefined && { workerStop: s.review.workerStop }),
    ...(decisions !== undefined && { workerDecisions: decisions }),
    aggregator: s.aggregator,
    tie: s.tie,
    ...checks,
    ...((redundancy ?? s.redundancy) && { redundancy: redundancy ?? s.redundancy }),
    ...(recollect && { recollect }),
  };
}

/**
 * Fails, naming the user's batch, when the copy would carry attention checks (as `request`
 * publishes it) but the source has no gold pool to draw them from.
 */
async function requireGoldForChecks(ctx: PipelineContext, source: string, request: PublishRequest): Promise<void> {
  if (resolveSettings(source, request, request.target ?? 'local').layout.checksPerHit === 0) return;
  if ((await visibleRecords(ctx, 'gold', source)).length > 0) return;
  throw new UserError(
    `batch ${source} has no gold items for the attention checks its simulated HITs would carry: import a gold pool (qrelay import <file> --batch ${source} --kind gold), then simulate again`,
  );
}

async function countRecords(ctx: PipelineContext, batch: string): Promise<CopyResult> {
  const [items, gold, consensus] = await Promise.all([
    visibleRecords(ctx, 'escalations', batch),
    visibleRecords(ctx, 'gold', batch),
    visibleRecords(ctx, 'consensus', batch),
  ]);
  return { items: items.length, gold: gold.length, consensus: consensus.length, withTruth: items.filter((r) => r.label !== null).length };
}

export async function simulateBatch(env: SimulateEnv, req: SimulateRequest): Promise<SimulationRun> {
  const started = performance.now();
  const say = env.progress ?? (() => {});
  const realCtx = createPipelineContext({ connection: env.connection, config: env.config, logger: env.logger, progress: () => {} });
  await requireBatch(realCtx, req.source);
  const requestFor = (target: string) =>
    publishRequestFor(
      realCtx,
      req.source,
      target,
      req.hideDebate,
      { ...(req.redundancy && { redundancy: req.redundancy }), ...(req.recollect && { recollect: req.recollect }) },
      req.workerDecisions,
      req.adaptiveChecks !== undefined ? { on: req.adaptiveChecks, expectedWorkers: req.population.size } : undefined,
    );
  if (req.inPlace) {
    if (req.name !== req.source) throw new Error('an in-place simulation has no copy: name must be the source');
    if (!(await prepareInPlace(realCtx, req.source))) throw new UserError(`batch ${req.source} is already complete`);
  } else {
    // what publishing the copy would find missing, found on the source before anything is copied
    await requireGoldForChecks(realCtx, req.source, await requestFor('local'));
    await claimCopyName(realCtx, req.source, req.name, req.replace);
  }

  const priv = privateConnection(env.connection, req.name);
  await dropPrivate(priv);
  // the private marketplace has money enough for any batch: a forecast is not limited by the real account
  const config: Config = { ...env.config, env: { ...env.config.env, MARKETPLACE_INITIAL_BALANCE: '100000000.00' } };
  let running: SimulatedMarketplace | undefined;
  let receiver: EventReceiver | undefined;
  let completed = false;
  try {
    running = await startMarketplaceWithSimulation({
      config,
      logger: env.logger,
      connection: priv,
      host: '127.0.0.1',
      port: 0,
      clockSpeed: 1,
      chaos: NO_CHAOS,
      idSeed: `${req.population.seed}:${req.name}`,
      backgroundTimer: false,
      // its database is dropped before and after the run, and read by nothing during it: HIT
      // changes and answers go to it while the next requests are served
      // (packages/marketplace/src/store/background-writer.ts)
      writes: 'background',
    });
    const clock = running.marketplace.clock;
    clock.hold();
    const target = running.url;
    const ctx = createPipelineContext({
      connection: env.connection,
      config,
      logger: env.logger,
      now: () => clock.now(),
      simulatedClock: true,
      progress: () => {},
    });
    // a target's custom qualification types are remembered per target URL: this one is new
    await ctx.models.targetQualifications.deleteMany({ _id: { $regex: `^${target.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\|` } });
    // and so are its workers' reputation records (src/pipeline/reputation.ts)
    await forgetTargetReputation(ctx, target);

    const copyStarted = performance.now();
    const copied = req.inPlace ? undefined : await copyBatch(realCtx, req.source, req.name, req.truth);
    const copy = copied ?? (await countRecords(realCtx, req.name));
    if (!req.inPlace)
      say(
        `copy       batch ${req.source} -> ${req.name} (simulated): ${copy.items} cases, ${copy.gold} gold items, ${copy.consensus} consensus labels${req.truth ? `, ${copy.withTruth} with a true label` : ''}`,
      );
    const publishStarted = performance.now();
    const published = await publishBatch(
      ctx,
      req.name,
      await requestFor(target),
      target,
      copied && { cases: copied.records.cases, gold: copied.records.goldItems },
    );
    const publishMs = performance.now() - publishStarted;
    env.onPublished?.(published.hits, published.quoteCents);
    say(`publish    ${published.hits} HITs on a private simulated marketplace (${target}: its own database and clock)`);

    // the copy's records as it wrote them (the demo's batch in place: read)
    const records = copied?.records.items ?? (await visibleRecords(ctx, 'escalations', req.name));
    const cases = copied?.records.cases ?? (await itemCases(ctx, records));
    const casesById = new Map(records.map((r, i) => [r._id, cases[i]!]));
    // the rounds' readers of item texts (LLM-assisted detection, reposts) take them from here
    ctx.knownCases = casesById;
    const gold = copied?.records.gold ?? (await visibleRecords(ctx, 'gold', req.name));
    const oracle = simulationOracle(
      records.map((r, i) => ({ key: r.key, truth: r.label, record: cases[i]! })),
      gold.flatMap((g) => (g.label ? [{ key: g.key, label: g.label }] : [])),
      req.population,
    );
    // the marketplace's event notifications say which HITs changed, so most rounds poll only those (round-poll.ts);
    // every HIT type subscribed before the crowd starts, so that the first round need not poll every HIT
    receiver = await startEventReceiver(target, config);
    const subscribeAll = async () =>
      receiver!.subscribe((await ctx.models.hits.distinct('hitTypeId', { batch: req.name })).filter((id): id is string => !!id));
    await subscribeAll();

    const settings = (await requireBatch(ctx, req.name)).settings;
    const sim = running.simulation;
    const workers = await sim.loadPopulation(req.population);
    sim.setOracle(oracle);
    const experimentSeed = req.experiment ? (settings?.seed ?? req.name) : undefined;
    sim.setExperiment(experimentSeed);
    sim.startStepped();

    const decisions = settings?.review.workerDecisions !== false;
    const roundMs = (req.roundSeconds ?? (decisions ? ROUND_SECONDS : PROTOCOL_ROUND_SECONDS)) * 1000;
    const startMs = clock.nowMs();
    const limitMs = startMs + (req.maxDays ?? 60) * 86_400_000;
    let rounds = 0;
    let crowdMs = 0;
    let roundsMs = 0;
    // the process's CPU time in the rounds (user + system, microseconds): the crowd and the marketplace wait meanwhile
    let roundsCpu = 0;
    // when the last round ran, and the crowd's submissions by then (round-schedule.ts)
    const planned = published.hits * (settings?.voteTarget ?? 0);
    let lastRoundMs = startMs;
    let submittedByLastRound = 0;
    // the service's round on each submission's notification (NOTIFIED_ROUND_MS later); larger batches: round-schedule.ts
    const notified = decisions && req.roundSeconds === undefined && planned <= NOTIFIED_ROUNDS_UP_TO;
    let saidComplete = -1;
    for (;;) {
      env.checkpoint?.();
      const t0 = performance.now();
      // the crowd works until every open slot is taken and submitted (or a round is due, or
      // notified: someone submitted, and the notified round is NOTIFIED_ROUND_MS later), then the requester's round
      const due = clock.nowMs() + roundMs;
      let t = await sim.runUntil(due, { untilQuiet: true, untilSubmitted: notified });
      if (notified && t < due && !sim.quiet()) t = await sim.runUntil(Math.min(due, t + NOTIFIED_ROUND_MS), { untilQuiet: true });
      // settle the HITs, then deliver every notification due (each tick delivers some)
      while ((await running.loops.tick()).delivered > 0);
      // a large batch's round runs when the evidence changed by a fraction of the batch (round-schedule.ts)
      const submitted = sim.progress().assignments.submitted;
      const quiet = t < due || sim.quiet();
      if (
        t < limitMs &&
        !roundRuns({ quiet, planned, sinceLastRound: submitted - submittedByLastRound, msSinceLastRound: t - lastRoundMs })
      ) {
        crowdMs += performance.now() - t0;
        continue;
      }
      lastRoundMs = t;
      submittedByLastRound = submitted;
      const t1 = performance.now();
      const cpu1 = process.cpuUsage();
      const poll = hitsToPoll({ roundsRun: rounds, notified: receiver.take() });
      const round = await collectBatch(ctx, req.name, poll ? { poll } : {});
      // HITs posted in the round: their types subscribed before the crowd can see them, so that no notification of theirs is lost (round-poll.ts)
      if (round.followUp.reposted > 0) await subscribeAll();
      rounds++;
      crowdMs += t1 - t0;
      roundsMs += performance.now() - t1;
      const cpu = process.cpuUsage(cpu1);
      roundsCpu += cpu.user + cpu.system;
      env.onRound?.(round.aggregation.summary.itemsComplete, round.aggregation.summary.items, (t - startMs) / 1000);
      // a round per submission: a line when the items with their votes changed
      if (!notified || round.aggregation.summary.itemsComplete !== saidComplete || round.followUp.complete)
        say(
          `work       ${round.aggregation.summary.itemsComplete}/${round.aggregation.summary.items} items with their votes after ${(Math.round((t - startMs) / 360_000) / 10).toFixed(1)} simulated hours`,
        );
      saidComplete = round.aggregation.summary.itemsComplete;
      if (round.followUp.complete) break;
      if (t >= limitMs) {
        const p = sim.progress();
        throw new UserError(
          `the simulated crowd did not finish batch ${req.name} in ${req.maxDays ?? 60} simulated days (${round.aggregation.summary.itemsComplete}/${round.aggregation.summary.items} items with their votes, ${p.assignments.submitted} assignments submitted): the population may be too small or unqualified for the preset; see its size, arrivalsPerHour and profile`,
        );
      }
      // the round's requests happened at time t; the crowd resumes a minute later (notified: at once, the next submission is the next round's)
      if (notified) continue;
      const t2 = performance.now();
      await sim.runUntil(t + 60_000);
      crowdMs += performance.now() - t2;
    }
    const simulatedSeconds = (clock.nowMs() - startMs) / 1000;
    say(`rounds     ${rounds} collection rounds took ${(roundsMs / 1000).toFixed(1)} s, ${(roundsCpu / 1e6).toFixed(1)} s of CPU`);
    env.logger.debug({ rounds, roundsSeconds: roundsMs / 1000, roundsCpuSeconds: roundsCpu / 1e6 }, 'simulate: collection rounds');
    const experiment = experimentSeed !== undefined ? { seed: experimentSeed, arms: sim.experimentArms() } : undefined;
    await sim.stop();
    // a background write that failed fails the run (and a kept marketplace is complete)
    await running.marketplace.flush();
    const blocks = await running.marketplace.models.blocks.find({}, { _id: 1 }).lean();
    // soft blocks: the workers qrelay gave its "blocked" qualification (pipeline/worker-decisions.ts)
    const softBlocked = await softBlockedWorkers(ctx, target);
    completed = true;
    return {
      copy: { items: copy.items, gold: copy.gold, consensus: copy.consensus, withTruth: copy.withTruth },
      cases: casesById,
      ctx,
      workers,
      ...(experiment && { experiment }),
      blocked: new Set([...blocks.map((b) => String(b._id)), ...softBlocked.keys()]),
      rounds,
      simulatedSeconds,
      wallSeconds: (performance.now() - started) / 1000,
      copyWallSeconds: (publishStarted - copyStarted) / 1000,
      publishWallSeconds: publishMs / 1000,
      crowdWallSeconds: crowdMs / 1000,
      roundsWallSeconds: roundsMs / 1000,
    };
  } finally {
    await receiver?.close().catch(() => undefined);
    await running?.close().catch((err: unknown) => env.logger.warn({ err }, 'closing the private simulated marketplace failed'));
    if (!(completed && req.keepMarketplace)) await dropPrivate(priv).catch(() => undefined);
    // a run that failed or was stopped leaves no copy behind (so the next needs no --replace)
    if (!completed && !req.inPlace)
      await deleteBatchData(realCtx, req.name).catch((err: unknown) =>
        env.logger.warn({ err }, `removing the unfinished simulated copy ${req.name} failed`),
      );
  }
}
