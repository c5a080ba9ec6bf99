/**
 * An LLM user: copies each item into a chatbot in another tab and answers what it says
 * (the batch's one LLM, oracle.llm: right with the batch's probability, its errors the
 * same for every LLM user). The page counts a copy and a time away per item; a "paster"
 * also pastes the chatbot's reasoning into the comment box now and then. The chatbot's
 * reply may mention the page's hidden code word; the user never writes it. A user the page
 * does not see (`seen` false) asks the chatbot on a second device: no copy, no time away,
 * nothing pasted; only the answers tell.
 */
import { EXAM_ACCURACY, noEvents, type Behaviour, type Oracle } from './behaviour.js';
import type { Rng } from './rng.js';

const REASONS = [
  'The passage states the key fact the answer relies on.',
  'The chunk discusses a related topic but does not give the information asked for.',
  'Evidence in the text directly supports one of the listed answers.',
  'The text does not mention the specific entity in the query.',
];

export function llmUser(rng: Rng, oracle: Oracle, seen = true): Behaviour & { pastes: boolean } {
  const pastes = seen && rng.chance(0.5);
  const median = rng.between(18, 35);
  return {
    kind: 'llm',
    pastes,
    accuracy: null,
    work: (item) => {
      const events = noEvents();
      if (seen) {
        events.copy = 1;
        events['focus-loss'] = 1;
      }
      const paste = pastes && rng.chance(0.6);
      if (paste) events.paste = 1;
      return {
        answer: oracle.llm(item.key),
        ms: 1000 * Math.max(6, rng.logNormal(median, 0.3)),
        events,
        ...(paste && { comment: rng.pick(REASONS) }),
      };
    },
    pauseSeconds: () => rng.between(10, 60),
    examAccuracy: EXAM_ACCURACY,
  };
}
