/**
 * The external crowd of a run (pure): the oracle of true labels and the batch's one LLM,
 * and the bots drawn under the run's seed. The LLM is right on each item with one
 * probability per batch (0.65–0.90), and its errors are the same for every LLM user.
 */
import { flip, type Behaviour, type BotKind, type Judgment, type Oracle } from './behaviour.js';
import { alwaysSame } from './always-same.js';
import { carelessAfterK } from './careless-after-k.js';
import { copier } from './copier-pair.js';
import { diligent } from './diligent.js';
import { llmUser } from './llm-user.js';
import { coin, rngFor, type Rng } from './rng.js';
import { spammer } from './spammer.js';

export interface BatchOracle extends Oracle {
  /** P(the LLM is right) in this batch. */
  llmAccuracy: number;
}

export function batchOracle(seed: string, truth: ReadonlyMap<string, Judgment>): BatchOracle {
  const llmAccuracy = 0.65 + 0.25 * coin(seed, 'llm-accuracy');
  return {
    llmAccuracy,
    truth: (key) => truth.get(key),
    llm: (key) => {
      const t = truth.get(key);
      const right = coin(seed, `llm:${key}`) < llmAccuracy;
      if (t === undefined) return coin(seed, `llm-guess:${key}`) < 0.5 ? 'yes' : 'no';
      return right ? t : flip(t);
    },
  };
}

export const DEFAULT_MIX: Readonly<Record<BotKind, number>> = {
  diligent: 20,
  spammer: 4,
  'always-yes': 2,
  'always-no': 2,
  careless: 3,
  llm: 4,
  copier: 2,
};

export interface BotSpec {
  /** Display name and login name. */
  name: string;
  password: string;
  behaviour: Behaviour;
  rng: Rng;
  /** Real seconds after the start at which the bot first logs in. */
  arrivalSeconds: number;
  /** What was drawn for it, for the report. */
  params: Record<string, number | string | boolean>;
}

/**
 * A mix from `kind=count,...` (QRELAY_BENCH_CROWD_MIX): the kinds named replace DEFAULT_MIX's
 * counts, the others keep theirs. Throws naming the variable and the bad part.
 */
export function parseMix(text: string, variable = 'QRELAY_BENCH_CROWD_MIX'): Record<BotKind, number> {
  const mix: Record<BotKind, number> = { ...DEFAULT_MIX };
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [kind, count] = part.split('=');
    if (kind === undefined || !(kind in mix) || count === undefined || !/^\d+$/.test(count.trim()))
      throw new Error(`${variable}: "${part}" is not kind=count with kind one of ${Object.keys(mix).join(', ')}; e.g. "llm=6,diligent=24"`);
    mix[kind as BotKind] = Number(count);
  }
  return mix;
}

/** What varies a crowd beyond its mix. */
export interface CrowdOptions {
  /** Share of the LLM users whose chatbot is in another tab, so the page sees copies and time away (the rest use a second device). */
  llmSeen: number;
}

/** The bots of a run; arrivals are spread over `arriveWithinSeconds` of real time. */
export function drawCrowd(
  seed: string,
  oracle: Oracle,
  mix: Readonly<Record<BotKind, number>>,
  arriveWithinSeconds: number,
  options: CrowdOptions = { llmSeen: 1 },
): BotSpec[] {
  const bots: BotSpec[] = [];
  const order = rngFor(seed, 'order');
  let n = 0;
  for (const kind of Object.keys(mix) as BotKind[]) {
    for (let i = 0; i < mix[kind]; i++) {
      n++;
      // opaque names: nothing a requester sees says what a bot is
      const name = `ext${seed.replace(/[^a-z0-9]/gi, '').slice(0, 12)}w${String(Math.floor(order.next() * 1e6)).padStart(6, '0')}${n}`;
      const rng = rngFor(seed, `bot:${kind}:${i}`);
      const seen = kind !== 'llm' || coin(seed, `llm-seen:${i}`) < options.llmSeen;
      const behaviour = behaviourOf(kind, rng, oracle, `${seed}:pair:${Math.floor(i / 2)}`, seen);
      const params: Record<string, number | string | boolean> = {};
      if (behaviour.accuracy) params.accuracy = Number(behaviour.accuracy.relevant.toFixed(3));
      if ('k' in behaviour) params.k = behaviour.k as number;
      if ('pastes' in behaviour) params.pastes = behaviour.pastes as boolean;
      if (kind === 'llm') params.seen = seen;
      bots.push({
        name,
        password: `pw-${rngFor(seed, `password:${n}`).next().toString(36).slice(2)}-x`,
        behaviour,
        rng,
        arrivalSeconds: order.next() * arriveWithinSeconds,
        params,
      });
    }
  }
  return bots;
}

function behaviourOf(kind: BotKind, rng: Rng, oracle: Oracle, pair: string, seen: boolean): Behaviour {
  switch (kind) {
    case 'diligent':
      return diligent(rng, oracle);
    case 'spammer':
      return spammer(rng);
    case 'always-yes':
      return alwaysSame(rng, 'yes');
    case 'always-no':
      return alwaysSame(rng, 'no');
    case 'careless':
      return carelessAfterK(rng, oracle);
    case 'llm':
      return llmUser(rng, oracle, seen);
    case 'copier':
      return copier(rng, pair);
  }
}
