/** A spammer: a coin toss per item, a few seconds each, straight on to the next HIT. */
import { EXAM_ACCURACY, hurriedItem, type Behaviour } from './behaviour.js';
import type { Rng } from './rng.js';

export function spammer(rng: Rng): Behaviour {
  const median = rng.between(2, 6);
  return {
    kind: 'spammer',
    accuracy: { relevant: 0.5, notRelevant: 0.5 },
    work: () => hurriedItem(rng, median, rng.chance(0.5) ? 'yes' : 'no'),
    pauseSeconds: () => rng.between(2, 15),
    examAccuracy: EXAM_ACCURACY,
  };
}
