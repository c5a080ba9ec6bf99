import { HeldDocuments, type Writes } from './background-writer.js';
import { insertOrReplaceText, insertOrReplaceTexts, type MarketplaceModels, type TextDoc } from './models.js';

/**
 * HITs' questions (HTMLQuestion, ExternalQuestion or QuestionForm XML) by HIT id, written
 * once by CreateHIT (again only by a retry of a CreateHIT that failed before its HIT was
 * written). The services keep the recently used ones in memory (services/hits.ts).
 *
 * With `background` writes (store/background-writer.ts) a question is held in memory at
 * once and written with the next ones in one insert, as its HIT is (store/hits.ts): a
 * requester creating hundreds of HITs, sixteen at a time (`qrelay simulate`'s publish),
 * then waits for no write of 46 KB per HIT. Until it is written it is read from memory.
 */
export class QuestionStore {
  /** `background` writes: questions stored and not written yet. */
  private readonly unwritten: HeldDocuments<TextDoc> | undefined;

  constructor(
    private readonly models: MarketplaceModels,
    writes: Writes = 'each',
  ) {
    // one stored already (by a CreateHIT tried again) is replaced
    if (writes === 'background') this.unwritten = new HeldDocuments((docs) => insertOrReplaceTexts(this.models.questions, docs));
  }

  /** Stores the question of a HIT (before the HIT itself is written). */
  async store(hitId: string, xml: string): Promise<void> {
    const doc = { _id: hitId, xml };
    if (this.unwritten) this.unwritten.add(doc);
    else await insertOrReplaceText(this.models.questions, doc);
  }

  /** The question of this HIT, if one is stored. */
  async xml(hitId: string): Promise<string | undefined> {
    return this.unwritten?.get(hitId)?.xml ?? (await this.models.questions.findById(hitId).lean<TextDoc>())?.xml;
  }

  /** Every question stored so far is in the database (a failed background write is thrown). */
  async flush(): Promise<void> {
    await this.unwritten?.flush();
  }
}
