/**
 * HIT planning at BRIDGE scale: prints figures, asserts nothing.
 *   node --import tsx bench/hits-plan.ts [cases=4056] [chunkChars=1200]
 * Plans the batch with the dream layout (9 real items + 1 check, debates shown), then
 * parses one simulated Assignment.Answer per assignment back into per-item answers.
 */
import { parseAssignmentAnswer, planHits } from '../src/hits/index.js';
import type { DebateTurn, EscalatedCase, GoldItem } from '../src/domain/cases.js';

const [cases = 4056, chunkChars = 1200] = process.argv.slice(2).map(Number);
const words =
  'the river flows through several countries before it reaches the sea and its basin drains a large part of central europe'.split(' ');
const text = (n: number, salt: number) => {
  let out = '';
  for (let i = 0; out.length < n; i++) out += `${words[(i * 7 + salt) % words.length]}${i % 17 === 16 ? '. ' : ' '}`;
  return out.slice(0, n);
};
const debate = (chunk: string): DebateTurn[] => {
  const quote = chunk.slice(100, 220).split(' ').slice(1, -1).join(' ');
  return [1, 2].flatMap((round) => [
    { round, agent: 'A', stance: 'relevant' as const, label: 'yes' as const, reasoning: text(400, round), references: [quote] },
    { round, agent: 'B', stance: 'irrelevant' as const, label: 'no' as const, reasoning: text(400, round + 3), references: [] },
  ]);
};
const batch: EscalatedCase[] = Array.from({ length: cases }, (_, i) => {
  const chunk = text(chunkChars, i);
  return {
    query_id: `q${Math.floor(i / 3)}`,
    query: `question number ${Math.floor(i / 3)} about rivers`,
    answers: ['the Danube', 'Danube'],
    chunk_id: `d${i}`,
    chunk,
    dataset: `ds${i % 4}`,
    debate: debate(chunk),
  };
});
const gold: GoldItem[] = Array.from({ length: 200 }, (_, i) => ({
  query_id: `g${i}`,
  query: `gold ${i}`,
  answers: ['x'],
  chunk_id: `gd${i}`,
  chunk: text(chunkChars, i + 5),
  label: i % 2 ? 'yes' : 'no',
  dataset: 'gold',
}));

const t0 = performance.now();
const plan = planHits(
  { cases: batch, gold },
  { seed: 'bench', layout: {}, pricing: { reward: '1.00', assignmentsPerHit: 3, masters: false } },
);
const planMs = performance.now() - t0;
const bytes = plan.hits.map((h) => h.bytes).sort((a, b) => a - b);
console.log(
  `plan: ${cases} cases of ${chunkChars} chars -> ${plan.hits.length} HITs (${plan.splits} splits) in ${planMs.toFixed(0)} ms (${(planMs / plan.hits.length).toFixed(2)} ms per HIT)`,
);
console.log(`question XML bytes: min ${bytes[0]}, median ${bytes[Math.floor(bytes.length / 2)]}, max ${bytes.at(-1)} (limit 65535)`);
console.log(`checks: ${JSON.stringify(plan.checks)}`);
console.log(
  `quote (cents): rewards ${plan.quote.rewards}, fees ${plan.quote.fees}, total ${plan.quote.total}, check overhead ${plan.quote.checkOverhead}, per label ${plan.quote.perLabel}`,
);

const answerXml = (n: number) =>
  '<QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd">' +
  Array.from({ length: n }, (_, k) => k + 1)
    .map(
      (i) =>
        `<Answer><QuestionIdentifier>item${i}_answer</QuestionIdentifier><FreeText>yes</FreeText></Answer><Answer><QuestionIdentifier>item${i}_comment</QuestionIdentifier><FreeText>fine &amp; clear</FreeText></Answer><Answer><QuestionIdentifier>item${i}_ms</QuestionIdentifier><FreeText>31000</FreeText></Answer>`,
    )
    .join('') +
  '<Answer><QuestionIdentifier>assignmentId</QuestionIdentifier><FreeText>A1</FreeText></Answer></QuestionFormAnswers>';
const t1 = performance.now();
let parsed = 0;
for (const hit of plan.hits)
  for (let a = 0; a < 3; a++) parsed += parseAssignmentAnswer(answerXml(hit.items.length), hit.items).items.length;
const parseMs = performance.now() - t1;
console.log(
  `answers: ${plan.hits.length * 3} assignments (${parsed} item answers) parsed in ${parseMs.toFixed(0)} ms (${((parseMs * 1000) / (plan.hits.length * 3)).toFixed(0)} µs each)`,
);
