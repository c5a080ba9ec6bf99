import { usesLlm, type AnswerModel, type OracleEntry } from './decide.js';
import type { SimWorker } from './draw.js';
import type { PopulationProfile } from './population.js';
import { hashUniform } from './random.js';

/**
 * What a simulated worker's browser would have recorded on one item (pure; the page
 * contract's `data-sim-event` inputs: copy, paste, focus-loss), and what they write in its
 * comment field. docs/population.md gives the reasons for each share.
 *
 * - An item an LLM-assisted worker sends to the LLM: a worker who uses a chat in another tab
 *   or window (`llm.tabShare` of them, decided per worker) copies the item and leaves the
 *   page for the chat, one copy and one focus loss; one who uses a browser extension or a
 *   second device leaves no trace on the page. On `llm.commentShare` of those items the
 *   worker pastes the LLM's explanation into the comment (a paste event for a tab user; an
 *   extension fills the field itself). When the item carried a hidden instruction (the
 *   page's canary, read from its hidden text), the LLM repeats its code word with
 *   `llm.canaryEcho`.
 * - Any other item (people, and LLM-assisted workers answering alone): a focus loss with
 *   `events.focusLoss`, a copy with `events.copy`.
 */

export type PageEventModel = AnswerModel & Pick<PopulationProfile, 'events'>;

export interface ItemTrace {
  events: Record<'copy' | 'paste' | 'focus-loss', number>;
  comment?: string;
}

const CODE_WORD = /code word ([\p{L}\p{N}]+)/u;

export function itemTrace(
  seed: string,
  worker: SimWorker,
  key: string,
  entry: OracleEntry | undefined,
  hiddenText: string | undefined,
  model: PageEventModel,
): ItemTrace {
  const u = (...parts: string[]) => hashUniform(seed, worker.workerId, key, 'trace', ...parts);
  if (entry && usesLlm(seed, worker, key)) {
    const tab = hashUniform(seed, worker.workerId, 'llm-tab') < model.llm.tabShare;
    const events = { copy: tab ? 1 : 0, paste: 0, 'focus-loss': tab ? 1 : 0 };
    if (u('comment') >= model.llm.commentShare) return { events };
    const codeWord = hiddenText ? CODE_WORD.exec(hiddenText)?.[1] : undefined;
    const echo = codeWord !== undefined && u('echo') < model.llm.canaryEcho ? ` (code word: ${codeWord})` : '';
    return {
      events: { ...events, paste: tab ? 1 : 0 },
      comment: `The passage addresses the question; the assessment rests on whether the key information is stated explicitly.${echo}`,
    };
  }
  return { events: { copy: u('copy') < model.events.copy ? 1 : 0, paste: 0, 'focus-loss': u('away') < model.events.focusLoss ? 1 : 0 } };
}
