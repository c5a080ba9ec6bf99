import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import { createHit as newHitState, MAX_ASSIGNMENTS, type HitState, type HitTypeProps } from '../domain/hit.js';
import { assignmentsCharge, usd } from '../domain/money.js';
import { parseQuestion, type Question } from '../domain/question-xml.js';
import { checkRequirements, type QualificationKind } from '../domain/requirements.js';
import { isSystemQualification, SYSTEM_QUALIFICATION_IDS } from '../domain/system-qualifications.js';
import { hashId, newEntityId, seededEntityId } from '../ids.js';
import type { HitTypeDoc } from '../store/models.js';
import { PackedTexts } from '../store/packed-texts.js';
import { SizedCache } from '../store/sized-cache.js';
import { keepWantedEvents } from './events.js';
import { claimToken, TOKEN_WINDOW_MS } from './payments.js';

/**
 * HIT types and HIT creation. A HIT type's id is derived from its properties, so
 * registering the same properties twice gives the same HITTypeId, as on MTurk.
 */

export const LIMITS = {
  lifetime: { min: 30, max: 31_536_000 },
  assignmentDuration: { min: 30, max: 31_536_000 },
  autoApprovalDelay: { min: 0, max: 2_592_000, default: 2_592_000 },
  title: 128,
  description: 2000,
  keywords: 1000,
  requesterAnnotation: 255,
  minimumRewardCents: 1,
};

export function qualificationKind(mp: Marketplace, id: string): QualificationKind | undefined {
  if (id === SYSTEM_QUALIFICATION_IDS.locale) return 'locale';
  if (isSystemQualification(id)) return 'integer';
  const type = mp.types.qualificationTypes.get(id);
  return type && !type.deleted ? 'integer' : undefined;
}

function invalid(path: string, message: string): DomainError {
  return new DomainError('ValidationException', `${path}: ${message}`);
}

function checkRange(value: number, range: { min: number; max: number }, path: string): void {
  if (value < range.min || value > range.max) throw invalid(path, `must be from ${range.min} to ${range.max} seconds (got ${value})`);
}

/** An Inactive qualification type cannot be required by new HITs (MTurk's rule). */
function refuseInactive(mp: Marketplace, requirements: HitTypeProps['qualificationRequirements']): void {
  requirements.forEach((r, i) => {
    const type = mp.types.qualificationTypes.get(r.QualificationTypeId);
    if (type && !type.deleted && type.status !== 'Active') {
      throw invalid(
        `QualificationRequirements.${i}.QualificationTypeId`,
        `qualification type ${type.id} ("${type.name}") is Inactive; activate it with UpdateQualificationType to require it`,
      );
    }
  });
}

/** Checks the properties a HIT type is made of and answers them in canonical form. */
export function checkHitTypeProps(mp: Marketplace, props: HitTypeProps): HitTypeProps {
  if (props.title.trim() === '') throw invalid('Title', 'must not be empty');
  if (props.title.length > LIMITS.title) throw invalid('Title', `must be at most ${LIMITS.title} characters (got ${props.title.length})`);
  if (props.description.trim() === '') throw invalid('Description', 'must not be empty');
  if (props.description.length > LIMITS.description)
    throw invalid('Description', `must be at most ${LIMITS.description} characters (got ${props.description.length})`);
  if (props.keywords !== undefined && props.keywords.length > LIMITS.keywords)
    throw invalid('Keywords', `must be at most ${LIMITS.keywords} characters (got ${props.keywords.length})`);
  if (props.rewardCents < LIMITS.minimumRewardCents) throw invalid('Reward', `must be at least 0.01 (got ${props.reward})`);
  checkRange(props.assignmentDurationSeconds, LIMITS.assignmentDuration, 'AssignmentDurationInSeconds');
  checkRange(props.autoApprovalDelaySeconds, LIMITS.autoApprovalDelay, 'AutoApprovalDelayInSeconds');
  refuseInactive(mp, props.qualificationRequirements);
  const issues = checkRequirements(props.qualificationRequirements, (id) => qualificationKind(mp, id));
  if (issues.length > 0) {
    const missing = issues.find((i) => i.message.endsWith('does not exist'));
    if (missing) throw new DomainError('QualificationTypeDoesNotExist', `${missing.path}: ${missing.message}`);
    throw new DomainError('ValidationException', issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  }
  return { ...props, reward: usd(props.rewardCents) };
}

/** A HIT type's id and group id: derived from its properties, so the same properties are the same type. */
export function hitTypeIdsOf(props: HitTypeProps): { id: string; groupId: string } {
  const canonical = JSON.stringify([
    props.title,
    props.description,
    props.keywords ?? '',
    props.reward,
    props.assignmentDurationSeconds,
    props.autoApprovalDelaySeconds,
    props.qualificationRequirements,
  ]);
  const id = hashId(`hittype:${canonical}`);
  return { id, groupId: hashId(`hitgroup:${id}`) };
}

export async function registerHitType(mp: Marketplace, raw: HitTypeProps): Promise<HitTypeDoc> {
  const props = checkHitTypeProps(mp, raw);
  const { id, groupId } = hitTypeIdsOf(props);
  const existing = mp.types.hitTypes.get(id);
  if (existing) return existing;
  const doc: HitTypeDoc = { _id: id, groupId, props, createdAt: mp.clock.now(), notificationActive: false };
  await mp.types.saveHitType(doc);
  return doc;
}

export function requireHitType(mp: Marketplace, hitTypeId: string): HitTypeDoc {
  const type = mp.types.hitTypes.get(hitTypeId);
  const deletedQualification = type?.props.qualificationRequirements.find(
    (r) => qualificationKind(mp, r.QualificationTypeId) === undefined,
  );
  if (!type || deletedQualification) {
    throw new DomainError(
      'HITTypeDoesNotExist',
      `Hit type ${hitTypeId} does not exist${deletedQualification ? ` (its qualification type ${deletedQualification.QualificationTypeId} was deleted)` : ''}.`,
    );
  }
  refuseInactive(mp, type.props.qualificationRequirements);
  return type;
}

export interface NewHitRequest {
  type: HitTypeDoc;
  maxAssignments: number;
  lifetimeSeconds: number;
  question?: string;
  layoutId?: string;
  requesterAnnotation?: string;
  uniqueRequestToken?: string;
}

export async function createHit(mp: Marketplace, req: NewHitRequest): Promise<HitState> {
  // requests with one token run one at a time, so a concurrent retry sees the first's HIT
  if (req.uniqueRequestToken === undefined) return createHitNow(mp, req);
  return mp.hitLocks.run(`CreateHIT:${req.uniqueRequestToken}`, () => createHitNow(mp, req));
}

async function createHitNow(mp: Marketplace, req: NewHitRequest): Promise<HitState> {
  if (req.layoutId !== undefined) {
    throw new DomainError(
      'HITLayoutDoesNotExist',
      `HITLayoutId ${req.layoutId} does not exist: this marketplace has no HIT layouts (they are made on MTurk's requester website); send the Question XML instead.`,
    );
  }
  if (req.question === undefined) throw invalid('Question', 'is required (give the HTMLQuestion, ExternalQuestion or QuestionForm XML)');
  parseQuestion(req.question, 'Question');
  if (req.maxAssignments < 1 || req.maxAssignments > MAX_ASSIGNMENTS)
    throw invalid('MaxAssignments', `must be from 1 to ${MAX_ASSIGNMENTS} (got ${req.maxAssignments})`);
  checkRange(req.lifetimeSeconds, LIMITS.lifetime, 'LifetimeInSeconds');
  if (req.requesterAnnotation !== undefined && req.requesterAnnotation.length > LIMITS.requesterAnnotation) {
    throw invalid(
      'RequesterAnnotation',
      `must be at most ${LIMITS.requesterAnnotation} characters (got ${req.requesterAnnotation.length})`,
    );
  }
  // a retry of a HIT already made with this token is answered before anything else, from
  // the HITs in memory (this process is the marketplace's only writer: store/lease.ts);
  // the token's claim (claimToken, below) stays the record a crash leaves behind
  if (req.uniqueRequestToken !== undefined) {
    const earlier = mp.hits.forToken(req.uniqueRequestToken);
    if (earlier && mp.clock.nowMs() - earlier.creationTime.getTime() < TOKEN_WINDOW_MS) {
      throw new DomainError('HitAlreadyExists', `There is already a HIT with this UniqueRequestToken (HITId ${earlier.id}).`);
    }
  }
  // MTurk refused HITs the balance could not pay for in full; funds are not reserved
  const props = req.type.props;
  const cost = assignmentsCharge(props.rewardCents, req.maxAssignments, props.qualificationRequirements, req.maxAssignments);
  if (mp.ledger.balanceCents() < cost.totalCents) {
    throw new DomainError(
      'InsufficientFunds',
      `This Requester has insufficient funds in their account to complete this transaction: the HIT can cost $${usd(cost.totalCents)} (${req.maxAssignments} x ($${props.reward} + $${usd(cost.feeCents / req.maxAssignments)} fee)) and the balance is $${usd(mp.ledger.balanceCents())}.`,
    );
  }
  const now = mp.clock.now();
  const seed = mp.settings.idSeed;
  // a simulation's HIT ids repeat from run to run (a retry without a token gets a fresh one)
  let id =
    seed !== undefined && req.uniqueRequestToken !== undefined
      ? seededEntityId(now.getTime(), `${seed}:${req.uniqueRequestToken}`)
      : newEntityId(Date.now());
  if (req.uniqueRequestToken !== undefined) {
    const claim = await claimToken(mp, 'CreateHIT', req.uniqueRequestToken, id, now);
    if (!claim.claimed) {
      if (mp.hits.get(claim.target)) {
        throw new DomainError('HitAlreadyExists', `There is already a HIT with this UniqueRequestToken (HITId ${claim.target}).`);
      }
      id = claim.target; // an earlier attempt claimed the token and stopped before creating the HIT
    }
  }
  const hit = keepWantedEvents(
    mp,
    newHitState(
      {
        id,
        typeId: req.type._id,
        groupId: req.type.groupId,
        props,
        maxAssignments: req.maxAssignments,
        lifetimeSeconds: req.lifetimeSeconds,
        ...(req.requesterAnnotation !== undefined ? { requesterAnnotation: req.requesterAnnotation } : {}),
      },
      now,
    ),
  );
  await mp.questions.store(id, req.question);
  // HITCreated, if subscribed, is handed to the outbox by the background loop (events.ts)
  await mp.hits.insert(hit, req.uniqueRequestToken);
  // its first worker would otherwise read it back from the database at once (the HIT exists now)
  xmlCache(mp).set(id, req.question);
  return mp.hits.get(id)!;
}

/**
 * A HIT's question never changes once the HIT exists, and every accept, frame and submit
 * needs it parsed, and every GetHIT, ListHITs and GetAssignment answers its XML: the XML of
 * the most recently used ones is kept deflated (store/packed-texts.ts: about 9 KB for a
 * 46 KB page of the paper's batch, so that QUESTION_XML_BUDGET holds some 5,000 of them; a
 * requester polling every HIT of a large batch with ListHITs read each one from the
 * database when the cache held 520 pages as strings, 9,833 reads of 46 KB in a
 * 12,168-case simulation), and the most recently used QUESTION_CACHE_SIZE kept parsed (a
 * parse of up to 64 KB of XML less per use). Only the question of a HIT that exists is
 * kept: a question stored by a CreateHIT that failed before its HIT was written may be
 * replaced by the retry.
 */
const QUESTION_CACHE_SIZE = 256;
const QUESTION_XML_BUDGET = 48 * 1024 * 1024;
const xmlCaches = new WeakMap<Marketplace, PackedTexts>();
const questionCaches = new WeakMap<Marketplace, SizedCache<Question>>();

function xmlCache(mp: Marketplace): PackedTexts {
  let cache = xmlCaches.get(mp);
  if (!cache) xmlCaches.set(mp, (cache = new PackedTexts(QUESTION_XML_BUDGET)));
  return cache;
}

export async function questionXml(mp: Marketplace, hitId: string): Promise<string | undefined> {
  const cache = xmlCache(mp);
  const cached = cache.get(hitId);
  if (cached !== undefined) return cached;
  const xml = await mp.questions.xml(hitId);
  if (xml !== undefined && mp.hits.get(hitId)) cache.set(hitId, xml);
  return xml;
}

export async function parsedQuestion(mp: Marketplace, hitId: string): Promise<Question | undefined> {
  // counted in entries: every parsed question weighs 1
  let cache = questionCaches.get(mp);
  if (!cache) questionCaches.set(mp, (cache = new SizedCache<Question>(QUESTION_CACHE_SIZE, () => 1)));
  const cached = cache.get(hitId);
  if (cached !== undefined) return cached;
  const xml = await questionXml(mp, hitId);
  if (xml === undefined) return undefined;
  const question = parseQuestion(xml);
  if (mp.hits.get(hitId)) cache.set(hitId, question);
  return question;
}
