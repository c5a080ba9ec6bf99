/**
 * A worker who turns careless: diligent for their first k assignments (k of 2–3), then a
 * coin toss per item in a few seconds, as someone who decided the checks do not matter.
 */
import { carefulItem, EXAM_ACCURACY, hurriedItem, personAnswer, type Behaviour, type Oracle } from './behaviour.js';
import type { Rng } from './rng.js';

export function carelessAfterK(rng: Rng, oracle: Oracle): Behaviour & { k: number } {
  const accuracy = rng.between(0.8, 0.95);
  const median = rng.between(30, 60);
  const fast = rng.between(3, 8);
  // a batch gives each worker a handful of HITs: k past 3 would rarely turn within one
  const k = 2 + Math.floor(rng.next() * 2);
  return {
    kind: 'careless',
    k,
    accuracy: null,
    work: (item, nth) =>
      nth < k
        ? carefulItem(rng, median, personAnswer(rng, oracle, item.key, accuracy))
        : hurriedItem(rng, fast, rng.chance(0.5) ? 'yes' : 'no'),
    pauseSeconds: () => rng.between(10, 90),
    examAccuracy: EXAM_ACCURACY,
  };
}
