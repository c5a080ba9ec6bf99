/**
 * The marketplace at DREAM scale on the dev database: prints figures, asserts nothing.
 *   node --import tsx bench/marketplace-api.ts [hits=450] [assignments=3]
 * Starts an ephemeral dev database (or uses MONGODB_URI), a marketplace on it, then times
 * CreateHIT through the AWS SDK, accept + submit through the worker functions, approval
 * through the SDK, listing, and the start-up load of the whole state after a restart.
 */
import {
  ApproveAssignmentCommand,
  CreateHITCommand,
  ListAssignmentsForHITCommand,
  ListHITsCommand,
  ListReviewableHITsCommand,
  MTurkClient,
} from '@aws-sdk/client-mturk';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY, loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { startMarketplace } from '@qrelay/marketplace';
import { keepAliveSdkHandler } from '../src/keep-alive-agents.js';
import { benchDatabase } from './support/bench-database.js';

const [hitCount = 450, perHit = 3] = process.argv.slice(2).map(Number);

async function time<T>(label: string, count: number, f: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const result = await f();
  const ms = performance.now() - t;
  console.log(`${label.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms  ${(ms / count).toFixed(2).padStart(7)} ms/op  (${count})`);
  return result;
}

const database = await benchDatabase('bench_marketplace');
const { connection } = database;
const config = loadConfig({ ...process.env, MARKETPLACE_INITIAL_BALANCE: '100000.00' });
const start = () =>
  startMarketplace({ config, logger: createLogger('warn'), connection, port: 0, host: '127.0.0.1', loopIntervalMs: 60_000 });
let running = await start();
const client = new MTurkClient({
  endpoint: running.url,
  region: 'us-east-1',
  credentials: { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY },
  requestHandler: keepAliveSdkHandler(),
});
const question = `<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"><HTMLContent><![CDATA[<form>${'<p>passage text</p>'.repeat(200)}</form>]]></HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>`;

console.log(`${hitCount} HITs x ${perHit} assignments on ${process.env.MONGODB_URI ? 'MONGODB_URI' : 'the dev database'}`);
const hitIds = await time('CreateHIT (SDK, sequential)', hitCount, async () => {
  const ids: string[] = [];
  for (let i = 0; i < hitCount; i++) {
    const { HIT } = await client.send(
      new CreateHITCommand({
        Title: 'Judge relevance',
        Description: 'DREAM escalations',
        Reward: '0.90',
        MaxAssignments: perHit,
        LifetimeInSeconds: 86_400,
        AssignmentDurationInSeconds: 1800,
        Question: question,
      }),
    );
    ids.push(HIT!.HITId!);
  }
  return ids;
});
const workers = await Promise.all(
  Array.from({ length: perHit * 4 }, (_, i) => running.workers.createWorker({ displayName: `bench-${i}` })),
);
await time('accept + submit (worker functions)', hitCount * perHit, async () => {
  await Promise.all(
    workers.map(async (w, i) => {
      for (let h = i % 4; h < hitIds.length; h += 4) {
        const a = await running.workers.acceptHit(w.workerId, hitIds[h]!).catch(() => undefined);
        if (a) await running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'yes', note: 'stated directly' });
      }
    }),
  );
});
await time('listAvailableHits (one worker)', 1, () => running.workers.listAvailableHits(workers[0]!.workerId));
await time('ListHITs, every page of 100', Math.ceil(hitCount / 100), async () => {
  let token: string | undefined;
  do token = (await client.send(new ListHITsCommand({ MaxResults: 100, NextToken: token }))).NextToken;
  while (token);
});
await time('ListReviewableHITs (100)', 1, () => client.send(new ListReviewableHITsCommand({ MaxResults: 100 })));
const toApprove = await time('ListAssignmentsForHIT, every HIT', hitCount, async () => {
  const ids: string[] = [];
  for (const hitId of hitIds)
    ids.push(...(await client.send(new ListAssignmentsForHITCommand({ HITId: hitId }))).Assignments!.map((a) => a.AssignmentId!));
  return ids;
});
await time('ApproveAssignment (SDK, sequential)', toApprove.length, async () => {
  for (const id of toApprove) await client.send(new ApproveAssignmentCommand({ AssignmentId: id }));
});
await running.close();
running = await time('restart: load the whole state', 1, start);
console.log(`balance after restart: ${running.marketplace.ledger.balanceCents() / 100} USD, ${running.marketplace.hits.size} HITs`);
await running.close();
client.destroy();
await database.drop();
