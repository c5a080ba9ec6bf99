/**
 * A simulated crowd at DREAM scale on the dev database: prints figures, asserts nothing.
 *   npm run bench            (node --import tsx bench/marketplace.ts [hits=1000] [assignments=3] [speed=3600])
 * Starts an ephemeral dev database (or uses MONGODB_URI) and a marketplace on it, creates
 * the HITs (qrelay's HIT page, 5 items each) through the AWS SDK, gives a seeded population
 * of simulated workers its oracle, and times the run until every assignment is submitted:
 * wall time, assignments per second, simulated time covered, and the accuracy of each
 * worker kind. (The Requester API's own figures: bench/marketplace-api.ts.)
 */
import { CreateHITCommand, MTurkClient } from '@aws-sdk/client-mturk';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY, loadConfig } from '../src/config.js';
import { renderHitPage, toHtmlQuestionXml } from '../src/hits/index.js';
import { createLogger } from '../src/log.js';
import { checkPopulation, startMarketplaceWithSimulation, type SimulationProgress } from '../src/simulation/index.js';
import { keepAliveSdkHandler } from '../src/keep-alive-agents.js';
import { benchDatabase } from './support/bench-database.js';

const [hitCount = 1000, perHit = 3, speed = 3600] = process.argv.slice(2).map(Number);
const ITEMS = 5;

const database = await benchDatabase('bench_sim');
const { connection } = database;
const config = loadConfig({ ...process.env, MARKETPLACE_INITIAL_BALANCE: '100000.00' });
const running = await startMarketplaceWithSimulation({ config, logger: createLogger('warn'), connection, port: 0, host: '127.0.0.1' });
const client = new MTurkClient({
  endpoint: running.url,
  region: 'us-east-1',
  credentials: { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY },
  requestHandler: keepAliveSdkHandler(),
});

const keys = Array.from({ length: hitCount * ITEMS }, (_, i) => i.toString(16).padStart(16, '0'));
const truth = (i: number) => (i % 5 < 2 ? 'yes' : 'no');
const model = (i: number) => (i % 10 === 9 ? (truth(i) === 'yes' ? 'no' : 'yes') : truth(i));

console.log(
  `${hitCount} HITs x ${perHit} assignments, ${ITEMS} items each, on ${process.env.MONGODB_URI ? 'MONGODB_URI' : 'the dev database'}; clock speed ${speed}`,
);
let t = performance.now();
for (let next = 0, lane = 0; lane < 1; lane++) {
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let h = next++; h < hitCount; h = next++) {
        const items = keys.slice(h * ITEMS, (h + 1) * ITEMS).map((key, i) => ({
          position: i + 1,
          key,
          query: `query ${h}.${i}`,
          answers: ['an answer'],
          chunk: `A passage about ${key}. `.repeat(20),
          debate: [],
        }));
        await client.send(
          new CreateHITCommand({
            Title: 'Does a text passage support the answer to a search query? (5 short items)',
            Description: 'Judge query-chunk pairs.',
            Reward: '0.55',
            MaxAssignments: perHit,
            LifetimeInSeconds: 7 * 86_400,
            AssignmentDurationInSeconds: 1800,
            AutoApprovalDelayInSeconds: 7 * 86_400,
            Question: toHtmlQuestionXml(renderHitPage({ items, hideDebate: true }), 0),
          }),
        );
      }
    }),
  );
}
console.log(`CreateHIT (SDK, 8 at a time): ${((performance.now() - t) / 1000).toFixed(1)} s`);

const population = checkPopulation({
  seed: 'bench',
  size: 150,
  arrivalsPerHour: 900,
  hitsPerVisit: 25,
  shares: { spammer: 0.1, alwaysYes: 0.05, alwaysNo: 0.05, llm: 0.1 },
  accuracy: { relevant: { alpha: 18, beta: 2 }, notRelevant: { alpha: 17, beta: 3 } },
  workTime: { medianSeconds: 40 },
  abandonRate: 0.02,
  returnRate: 0.03,
});
if (!population.ok) throw new Error(JSON.stringify(population.issues));
t = performance.now();
await running.simulation.loadPopulation(population.profile);
running.simulation.setOracle(Object.fromEntries(keys.map((k, i) => [k, { truth: truth(i), model: model(i) }])));
console.log(`population of ${population.profile.size} workers loaded: ${((performance.now() - t) / 1000).toFixed(1)} s`);

running.marketplace.clock.setSpeed(speed);
const target = hitCount * perHit;
t = performance.now();
running.simulation.start();
let p: SimulationProgress = running.simulation.progress();
let lastReport = performance.now();
while (p.assignments.submitted < target) {
  await new Promise((r) => setTimeout(r, 100));
  p = running.simulation.progress();
  if (performance.now() - lastReport > 10_000) {
    lastReport = performance.now();
    console.log(`  ... ${p.assignments.submitted} submitted after ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  if (p.errors.count > 0 && p.assignments.submitted === 0) throw new Error(`the simulation fails: ${p.errors.last}`);
}
const wall = (performance.now() - t) / 1000;
await running.simulation.stop();
p = running.simulation.progress();

console.log(
  `\nsimulated run: ${wall.toFixed(1)} s wall time for ${p.assignments.submitted} assignments = ${(p.assignments.submitted / wall).toFixed(1)} assignments/s`,
);
console.log(`simulated time covered: ${(p.simulatedSeconds / 3600).toFixed(1)} h (${(p.simulatedSeconds / wall).toFixed(0)}x real time)`);
console.log(
  `assignments: ${p.assignments.accepted} accepted, ${p.assignments.submitted} submitted, ${p.assignments.returned} returned, ${p.assignments.abandoned} abandoned, ${p.assignments.late} late; visits ${p.workers.visits}; errors ${p.errors.count}`,
);
console.log('accuracy by worker kind (answers to items with a known truth):');
for (const [kind, k] of Object.entries(p.byKind)) {
  console.log(
    `  ${kind.padEnd(10)} ${String(k.workers).padStart(4)} workers ${String(k.submitted).padStart(6)} assignments ${String(k.judged).padStart(7)} answers  accuracy ${k.accuracy === null ? '   -' : k.accuracy.toFixed(3)}  yes ${k.judged ? (k.yes / k.judged).toFixed(3) : '-'}`,
  );
}
console.log(`(truth: 40% yes; LLM-like workers follow a model label that is wrong on 10% of items)`);

await running.close();
client.destroy();
await database.drop();
