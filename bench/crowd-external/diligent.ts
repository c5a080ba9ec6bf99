/** A diligent person: accuracy 0.80–0.95 of their own, 30–60 s per item with spread, now and then away from the page. */
import { carefulItem, EXAM_ACCURACY, personAnswer, type Behaviour, type Oracle } from './behaviour.js';
import type { Rng } from './rng.js';

export function diligent(rng: Rng, oracle: Oracle): Behaviour {
  const accuracy = rng.between(0.8, 0.95);
  const median = rng.between(30, 60);
  return {
    kind: 'diligent',
    accuracy: { relevant: accuracy, notRelevant: accuracy },
    work: (item) => carefulItem(rng, median, personAnswer(rng, oracle, item.key, accuracy)),
    pauseSeconds: () => rng.between(20, 180),
    examAccuracy: EXAM_ACCURACY,
  };
}
