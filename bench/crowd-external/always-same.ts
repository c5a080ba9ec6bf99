/** Always-yes or always-no: one answer for every item, quickly. */
import { EXAM_ACCURACY, hurriedItem, type Behaviour, type Judgment } from './behaviour.js';
import type { Rng } from './rng.js';

export function alwaysSame(rng: Rng, answer: Judgment): Behaviour {
  const median = rng.between(3, 8);
  return {
    kind: answer === 'yes' ? 'always-yes' : 'always-no',
    accuracy: answer === 'yes' ? { relevant: 1, notRelevant: 0 } : { relevant: 0, notRelevant: 1 },
    work: () => hurriedItem(rng, median, answer),
    pauseSeconds: () => rng.between(2, 20),
    examAccuracy: EXAM_ACCURACY,
  };
}
