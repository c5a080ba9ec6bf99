/**
 * HITs: plan a batch into HITs with attention checks, render the HIT page as HTMLQuestion
 * XML, quote the cost, read answers back, and load presets and qualification tests.
 */
export { simKey } from './keys.js';
export { seededRng, type Rng } from './random.js';
export {
  ASSIGNMENT_ID_FIELD,
  COMMENT_MAX_LENGTH,
  ITEM_FIELD_KINDS,
  itemField,
  itemFields,
  parseItemField,
  type ItemFieldKind,
} from './fields.js';
export { escapeHtml, findQuoteSpans, highlightChunk, normaliseQuote, MIN_QUOTE_CHARS, type EvidenceQuote } from './highlight.js';
export { summariseDebate, type AgentSummary } from './debate-view.js';
export { loadHitTemplates, HIT_TEMPLATE_DIR, type HitTemplates } from './templates.js';
export {
  DEFAULT_PAGE_TITLE,
  HTML_QUESTION_NS,
  MAX_QUESTION_BYTES,
  renderHitPage,
  toHtmlQuestionXml,
  toXmlChars,
  utf8Bytes,
  type HitPageInput,
  type HitPageItem,
} from './render.js';
export { CheckSummary, HitQuestion, PlannedCheckItem, PlannedHit, PlannedItem, PlannedRealItem } from './plan-schema.js';
export {
  balancedPolarities,
  checksFor,
  PlanLayout,
  planHits,
  type HitPlan,
  type PlanInput,
  type PlanLayoutInput,
  type PlanOptions,
  type PlanPricing,
} from './plan.js';
export {
  AdaptiveChecks,
  audienceMoves,
  describeAdaptive,
  movesPerRound,
  HIT_AUDIENCES,
  type AdaptiveChecksInput,
  type AudienceHit,
  type HitAudience,
} from './adaptive-checks.js';
export { describeShortfall, goldShortfall, goldUses, type GoldNeed } from './check-uniqueness.js';
export { quoteCost, type CostQuote, type QuoteInput } from './quote.js';
export {
  AnswerFormatError,
  assertComplete,
  parseAnswerFields,
  parseAssignmentAnswer,
  type ItemAnswer,
  type ParsedAssignment,
} from './answers.js';
export { prolificEligibility, type ProlificEligibility, type ProlificFilter } from './prolific-filters.js';
export {
  estimatedHitSeconds,
  FEDERAL_MINIMUM_WAGE_CENTS_PER_HOUR,
  HitPreset,
  hourlyPayCents,
  listPresets,
  loadPreset,
  MASTERS_QUALIFICATION_IDS,
  parsePreset,
  PresetQualification,
  presetPlanOptions,
  llmAssistedAction,
  QUALIFICATION_DIR,
  QualificationComparator,
  requiresMasters,
  resolveQualificationRequirements,
  SYSTEM_QUALIFICATIONS,
  type QualificationTargetContext,
} from './presets.js';
export {
  ANSWER_KEY_NS,
  checkQualificationTest,
  loadQualificationTest,
  QUESTION_FORM_NS,
  QualificationTestMeta,
  scoreQualificationTest,
  type QualificationTest,
} from './qualification.js';
