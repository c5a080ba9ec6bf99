import { agentJson, type ChatRequest, type ScriptedReply } from '../support/openai-server.js';

/**
 * Scripted candidates: each query names its behaviour (`[agree-yes-1] ...`), and the
 * script answers every request of that candidate accordingly. `expected` says what the
 * debate must make of each behaviour.
 */

export const BEHAVIOURS = {
  'agree-yes-1': { outcome: 'consensus', label: 'yes', round: 1 },
  'agree-no-1': { outcome: 'consensus', label: 'no', round: 1 },
  'agree-yes-2': { outcome: 'consensus', label: 'yes', round: 2 },
  'agree-no-2': { outcome: 'consensus', label: 'no', round: 2 },
  disagree: { outcome: 'escalated' },
  'malformed-once': { outcome: 'consensus', label: 'yes', round: 1 },
  'malformed-always': { outcome: 'failed' },
  'rate-limited': { outcome: 'consensus', label: 'no', round: 1 },
  'server-error': { outcome: 'escalated' },
  slow: { outcome: 'consensus', label: 'yes', round: 1 },
} as const;
export type Behaviour = keyof typeof BEHAVIOURS;

export interface CandidateLine {
  query_id: string;
  query: string;
  answers: string[];
  chunk_id: string;
  chunk: string;
  dataset?: string;
}

export function candidate(i: number, behaviour: Behaviour): CandidateLine {
  return {
    query_id: `q${i}`,
    query: `[${behaviour}] question number ${i}?`,
    answers: [`answer ${i}`, `other answer ${i}`],
    chunk_id: `d${i}`,
    chunk: `Passage ${i} says something about answer ${i}. {not a placeholder}`,
    dataset: 'scripted',
  };
}

export function behaviourOf(req: ChatRequest): Behaviour {
  const m = /^\[([a-z0-9-]+)\]/.exec(req.query);
  return (m?.[1] ?? 'disagree') as Behaviour;
}

/** The label an agent gives in a round, per behaviour. */
function label(b: Behaviour, agent: 'A' | 'B', round: number): 'yes' | 'no' {
  switch (b) {
    case 'agree-yes-1':
    case 'malformed-once':
    case 'malformed-always':
    case 'slow':
      return 'yes';
    case 'agree-no-1':
    case 'rate-limited':
      return 'no';
    case 'agree-yes-2':
      return round === 1 ? (agent === 'A' ? 'yes' : 'no') : 'yes';
    case 'agree-no-2':
      return round === 1 ? (agent === 'A' ? 'yes' : 'no') : 'no';
    default:
      return agent === 'A' ? 'yes' : 'no';
  }
}

/** Usage tokens that differ per request, so sums check that each was counted once. */
const usage = (req: ChatRequest) => ({
  prompt_tokens: 200 + (req.messages.reduce((n, m) => n + m.content.length, 0) % 97),
  completion_tokens: 15 + req.round + req.reask,
});

export function debateScript(req: ChatRequest, attempt: number): ScriptedReply {
  const b = behaviourOf(req);
  if (req.role === 'prefilter') {
    return {
      reply: { kind: 'json', object: { is_supported: !/filter-out/.test(req.query) } },
      usage: { prompt_tokens: 50, completion_tokens: 5 },
    };
  }
  if (req.role === 'adjudicator') {
    return {
      reply: { kind: 'json', object: agentJson(/odd/.test(req.query) ? 'no' : 'yes', 'the adjudicator weighed both'), wrap: 'fence' },
      usage: { prompt_tokens: 300, completion_tokens: 30 },
    };
  }
  const agent = req.role === 'B' ? 'B' : 'A';
  const l = label(b, agent, req.round);
  const reason = `Agent ${agent} round ${req.round} on ${req.query}: ${l}`;
  const answer = { kind: 'json' as const, object: agentJson(l, reason, [`sentence ${req.round}`]) };
  if (b === 'malformed-always' && agent === 'A')
    return { reply: { kind: 'text', content: `I think ${l}, but no JSON here` }, usage: usage(req) };
  if (b === 'malformed-once' && agent === 'A' && req.reask === 0)
    return { reply: { kind: 'text', content: '{"reference": [], "reason": "cut off' }, usage: usage(req) };
  if (b === 'malformed-once') return { reply: { ...answer, wrap: 'fence' }, usage: usage(req) };
  if (b === 'rate-limited' && attempt === 0)
    return { reply: { kind: 'status', status: 429, retryAfter: '1', message: 'Rate limit reached' } };
  if (b === 'server-error' && attempt < 2) return { reply: { kind: 'status', status: attempt === 0 ? 500 : 503 } };
  if (b === 'slow')
    return {
      reply: { kind: 'json', object: { Reference: [], Reason: reason, Response: l.toUpperCase() }, wrap: 'prose' },
      delayMs: 300,
      usage: usage(req),
    };
  return { reply: answer, usage: usage(req) };
}
