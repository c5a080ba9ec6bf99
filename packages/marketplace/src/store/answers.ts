import { HeldDocuments, type Writes } from './background-writer.js';
import { insertOrReplaceText, insertOrReplaceTexts, type MarketplaceModels, type TextDoc } from './models.js';
import { PackedTexts } from './packed-texts.js';

/**
 * Submitted answers (QuestionFormAnswers XML) by assignment id. Each is written once when
 * its assignment is submitted, and read when the requester reviews it (ListAssignmentsForHIT,
 * GetAssignment), often more than once: what this process wrote is kept in memory, deflated
 * (store/packed-texts.ts), up to ANSWER_BUDGET packed bytes, the most recent first, so a
 * review costs no read per assignment. Only writes fill the cache, so it never holds an
 * answer older than the one stored; after a restart, answers are read from the database.
 *
 * Kept as strings, 32 MB of answers were some 4,000 of a simulated batch's (a 40,560-case
 * `qrelay simulate` submits over 13,000), all of them live in the process's heap at its
 * peak (issue 38, item 13). An answer deflates to a fraction of its text, outside the heap,
 * and is packed once and unpacked when read (once or twice): a smaller budget keeps more
 * of them than the strings did.
 *
 * With `background` writes (store/background-writer.ts) an answer is stored in memory at
 * once and written with the next few in one insert; until then it is read from memory
 * whatever the cache has let go.
 */
const ANSWER_BUDGET = 12 * 1024 * 1024;

export class AnswerStore {
  private readonly cache = new PackedTexts(ANSWER_BUDGET);
  /** `background` writes: answers stored and not written yet. */
  private readonly unwritten: HeldDocuments<TextDoc> | undefined;

  constructor(
    private readonly models: MarketplaceModels,
    writes: Writes = 'each',
  ) {
    // one stored already (a submission tried again) is replaced
    if (writes === 'background') this.unwritten = new HeldDocuments((docs) => insertOrReplaceTexts(this.models.answers, docs));
  }

  /** Stores the answer of a submission (before its assignment becomes Submitted). */
  async store(assignmentId: string, hitId: string, xml: string): Promise<void> {
    const doc = { _id: assignmentId, xml, hitId };
    if (this.unwritten) this.unwritten.add(doc);
    else await insertOrReplaceText(this.models.answers, doc);
    this.cache.set(assignmentId, xml);
  }

  /** The stored answers of these assignments (those that have one). */
  async of(ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const missing: string[] = [];
    for (const id of ids) {
      const xml = this.cache.get(id) ?? this.unwritten?.get(id)?.xml;
      if (xml !== undefined) out.set(id, xml);
      else missing.push(id);
    }
    // by `_id` one at a time: the dev database answers these from its index, and scans for `$in`
    const docs = await Promise.all(missing.map((id) => this.models.answers.findById(id).lean<TextDoc>()));
    for (const d of docs) if (d) out.set(d._id, d.xml);
    return out;
  }

  /** Every answer stored so far is in the database (a failed background write is thrown). */
  async flush(): Promise<void> {
    await this.unwritten?.flush();
  }
}
