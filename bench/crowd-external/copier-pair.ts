/**
 * A copier pair: two accounts worked from one answer sheet, a coin toss per item shared
 * by both (coin of the pair's name and the item), so that they agree with each other
 * everywhere and with the truth by chance.
 */
import { EXAM_ACCURACY, hurriedItem, type Behaviour } from './behaviour.js';
import { coin, type Rng } from './rng.js';

export function copier(rng: Rng, pair: string): Behaviour {
  const median = rng.between(8, 15);
  return {
    kind: 'copier',
    accuracy: null,
    work: (item) => hurriedItem(rng, median, coin(pair, item.key) < 0.5 ? 'yes' : 'no'),
    pauseSeconds: () => rng.between(5, 40),
    examAccuracy: EXAM_ACCURACY,
  };
}
