import type { BatchDoc, BatchSettings, HitDoc } from '../db/models/index.js';
import { audienceMoves, goldUses, movesPerRound, type HitAudience } from '../hits/index.js';
import type { PipelineContext } from './context.js';
import { ensureExperienceQualification, experienceQualifications } from './experience-qualification.js';
import { isOpen } from './follow-up.js';
import { caseKey } from '../ingest/index.js';
import { itemId } from './names.js';
import { hitDocs, planWith, storeHits } from './plan.js';
import { goldItems, itemCases, visibleRecords } from './records.js';

/**
 * A collection round's step for adaptive checks (hits/adaptive-checks.ts): when every open HIT
 * of one kind is taken while HITs of the other kind still offer slots, some of those move
 * over. A HIT's page is fixed, so moving means ExpireHIT (its accepted assignments still come
 * in) and new HITs of the other kind for its real items, with as many assignments as it had
 * slots left free, drawn with the batch's unused gold. Returns how many HITs it planned
 * (publish creates them).
 *
 * Crash safety: a round cut off between the expiry and the new HITs leaves a closed HIT
 * whose items lack votes; the next round's follow-up posts them again as for any stuck item.
 */
export async function moveAudiences(ctx: PipelineContext, doc: BatchDoc, batchHits: readonly HitDoc[]): Promise<number> {
  const settings = doc.settings as BatchSettings;
  const adaptive = settings.layout.adaptive;
  if (!adaptive || doc.state !== 'collecting') return 0;
  const backend = ctx.backend(settings.target);
  // the round's copy of the batch's HITs, read again by the round after its follow-up added any
  const hits = [...batchHits].sort((a, b) => a.index - b.index);
  const now = ctx.now().getTime();
  const kinds = hits.filter((h): h is HitDoc & { audience: HitAudience } => h.audience !== undefined && h.state === 'published');
  const experienced = await experienceQualifications(backend).qualificationScores(
    await ensureExperienceQualification(ctx, settings.target, backend),
  );
  const move = audienceMoves(
    kinds.map((h) => ({ id: h._id, audience: h.audience, open: isOpen(h, now), available: h.platform?.available ?? h.maxAssignments })),
    movesPerRound(adaptive, settings.voteTarget),
    // regular HITs are wanted once someone may take them; new workers may come at any time
    { starter: true, regular: experienced.size > 0 },
  );
  if (!move) return 0;
  const gold = await goldItems(ctx, await visibleRecords(ctx, 'gold', doc._id));
  let next = Math.max(-1, ...hits.map((h) => h.index)) + 1;
  const planned: HitDoc[] = [...hits];
  let made = 0;
  for (const id of move.ids) {
    const hit = hits.find((h) => h._id === id) as HitDoc;
    await backend.expireHit(hit.hitId as string);
    const free = (await backend.getHit(hit.hitId as string)).available;
    if (free === 0) continue; // taken in the meantime: nothing to move
    const real = hit.items.filter((i) => i.kind === 'real');
    const cases = await itemCases(
      ctx,
      real.map((i) => ({ _id: itemId(doc._id, caseKey(i.queryId, i.chunkId)) })),
    );
    const plan = planWith(
      doc._id,
      { cases, gold, priorGoldUses: goldUses(planned), audience: move.to },
      settings,
      `${settings.seed}|${move.to}-${hit.index}`,
    );
    const docs = hitDocs(doc._id, plan, { firstIndex: next, origin: 'repost', maxAssignments: () => free });
    await storeHits(ctx, docs, plan, next);
    planned.push(...docs);
    next += docs.length;
    made += docs.length;
    ctx.progress(
      `batch ${doc._id}: HIT ${hit.index} (${hit.audience}) expired, its ${real.length} items in ${docs.length} new ${move.to} HIT${docs.length === 1 ? '' : 's'}: ${move.to === 'starter' ? 'new workers found no starter HIT left' : 'the regular HITs are all taken'}`,
    );
  }
  return made;
}
