import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { z } from 'zod';
import { parseUsd } from '@qrelay/marketplace/fees';
import { UserError } from '../errors.js';
import { paths } from '../paths.js';
import { AdaptiveChecks } from './adaptive-checks.js';
import type { PlanOptions } from './plan.js';

/**
 * HIT presets (`hits/<name>.json`): what a batch's HITs ask for, pay and require.
 *
 * Pay. A preset states its time estimate and the schema refuses a reward below the US
 * federal minimum wage ($7.25/h) for it. The `dream` preset (hits/README.md has the
 * details): 45 s per item (read the query and answers, a 100–200-word chunk, the two
 * agents' final arguments, decide) x 10 items (9 real + 1 check) + 30 s (guideline
 * refresher, submit) = 480 s = 8 min; reward $1.00 -> $1.00 x 3600 / 480 = $7.50/h,
 * the paper's rate. That is $0.10 per item shown and per worker (the paper's ~$0.10 per
 * case); with 3 workers, the 20% fee and the check overhead, one real label costs
 * 3 x $1.20 / 9 = $0.40.
 */

export const FEDERAL_MINIMUM_WAGE_CENTS_PER_HOUR = 725;

export const SYSTEM_QUALIFICATIONS = {
  PercentAssignmentsApproved: '000000000000000000L0',
  NumberHITsApproved: '00000000000000000040',
  Locale: '00000000000000000071',
  Adult: '00000000000000000060',
} as const;

export const MASTERS_QUALIFICATION_IDS = {
  production: '2F1QJWKUDD8XADTFD2Q0G6UTO95ALH',
  sandbox: '2ARFPLSP75KLA8M8DH1HTEQVJT3SY6',
} as const;

export const QualificationComparator = z.enum([
  'LessThan',
  'LessThanOrEqualTo',
  'GreaterThan',
  'GreaterThanOrEqualTo',
  'EqualTo',
  'NotEqualTo',
  'Exists',
  'DoesNotExist',
  'In',
  'NotIn',
]);
export type QualificationComparator = z.infer<typeof QualificationComparator>;

const Locale = z.strictObject({
  country: z.string().regex(/^[A-Z]{2}$/, 'expected an ISO 3166 country code such as "US"'),
  subdivision: z
    .string()
    .regex(/^[A-Z0-9]{1,3}$/, 'expected an ISO 3166-2 subdivision such as "CA"')
    .optional(),
});

/**
 * One qualification requirement: a system or known type by `id`, a custom type created
 * per target by the pipeline by `custom` (the name of a test in hits/qualification/), or
 * `masters: true` (whose id depends on the target).
 */
export const PresetQualification = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Z0-9]{1,64}$/, 'expected a QualificationTypeId (capital letters and digits)')
      .optional(),
    custom: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'expected the name of a qualification test in hits/qualification/ (lower case, digits, dashes)')
      .optional(),
    masters: z.literal(true).optional(),
    comparator: QualificationComparator.optional(),
    values: z.array(z.number().int()).min(1).max(15).optional(),
    locales: z.array(Locale).min(1).max(30).optional(),
    actionsGuarded: z.enum(['Accept', 'PreviewAndAccept', 'DiscoverPreviewAndAccept']).optional(),
  })
  .superRefine((q, ctx) => {
    const issue = (message: string, path: string[] = []) => ctx.addIssue({ code: 'custom', message, path });
    const kinds = [q.id, q.custom, q.masters].filter((v) => v !== undefined).length;
    if (kinds !== 1) return issue('give exactly one of "id", "custom" or "masters"');
    if (q.masters) {
      if (q.comparator !== undefined && q.comparator !== 'Exists')
        issue('Masters is required with "Exists" (or no comparator)', ['comparator']);
      if (q.values || q.locales) issue('Masters takes no values or locales', [q.values ? 'values' : 'locales']);
      return;
    }
    if (!q.comparator) return issue('required', ['comparator']);
    const isLocale = q.id === SYSTEM_QUALIFICATIONS.Locale;
    if (!isLocale && q.locales) issue('only the Locale qualification (00000000000000000071) takes locales', ['locales']);
    if (isLocale && q.values) issue('the Locale qualification takes "locales", not "values"', ['values']);
    const given = (isLocale ? q.locales : q.values)?.length ?? 0;
    const field = isLocale ? 'locales' : 'values';
    if (q.comparator === 'Exists' || q.comparator === 'DoesNotExist') {
      if (given > 0) issue(`${q.comparator} takes no ${field}`, [field]);
    } else if (q.comparator === 'In' || q.comparator === 'NotIn') {
      if (given === 0) issue(`${q.comparator} needs at least one entry in "${field}"`, [field]);
    } else if (given !== 1) issue(`${q.comparator} needs exactly one entry in "${field}"`, [field]);
  });
export type PresetQualification = z.infer<typeof PresetQualification>;

const ProlificFilter = z.union([
  z.strictObject({ filter_id: z.string().min(1), selected_values: z.array(z.string()).min(1) }),
  z.strictObject({
    filter_id: z.string().min(1),
    selected_range: z.strictObject({ lower: z.number().optional(), upper: z.number().optional() }),
  }),
]);

const ProlificSettings = z.strictObject({
  /** Prolific's filters (`GET /filters/`); absent: the MTurk requirements mapped where a filter exists. */
  filters: z.array(ProlificFilter).optional(),
  notes: z.array(z.string()).optional(),
});

const USD = /^[0-9]+(\.)?[0-9]{0,2}$/;

const seconds = (min: number, max: number) => z.number().int('expected a whole number of seconds').min(min).max(max);

export const HitPreset = z
  .strictObject({
    /** Free-form notes for people (the reward arithmetic, provenance); ignored. */
    notes: z.array(z.string()).optional(),
    title: z.string().trim().min(1).max(128),
    description: z.string().trim().min(1).max(2000),
    keywords: z.string().max(1000).default(''),
    reward: z
      .string()
      .regex(USD, 'expected a USD amount with at most 2 decimals, such as "1.00"')
      .refine((v) => !USD.test(v) || parseUsd(v) >= 1, 'the reward must be at least "0.01"'),
    assignmentDurationSeconds: seconds(30, 31_536_000),
    lifetimeSeconds: seconds(30, 31_536_000),
    autoApprovalDelaySeconds: seconds(0, 2_592_000),
    assignmentsPerHit: z.number().int().min(1).max(1000).default(3),
    itemsPerHit: z.number().int().min(1).max(100).default(9),
    checksPerHit: z.number().int().min(0).max(50).default(1),
    frameHeight: z.number().int().min(0).max(10_000).default(0),
    hideDebate: z.boolean().default(false),
    /** `adaptive`: two workers per HIT first, the third only where two votes disagree (publish --redundancy). */
    redundancy: z.enum(['fixed', 'adaptive']).default('fixed'),
    /**
     * Lost votes (work discarded by a failed check or a stopped worker) collected again:
     * `when-undecided` (the default), only for items whose remaining valid votes do not already
     * decide the majority (2 agreeing of 3): the same labels as a full majority of three, for
     * less; `always`, every lost vote (publish --recollect; quality/decided-majority.ts).
     */
    recollect: z.enum(['when-undecided', 'always']).default('when-undecided'),
    /** Hidden canary instructions in the HIT page (src/hits/canary.ts): evidence of LLM-assisted answers. */
    canary: z.boolean().default(true),
    /**
     * What befalls a worker flagged `llm-assisted`: `block` (the default: the worker-level block,
     * their votes withdrawn and their items collected again) or `flag` (listed with the evidence
     * only); read by `llmAssistedAction`. `block` by default because the flagged workers all
     * answer with one model: their votes count as one correlated vote several times over, and
     * their errors stay in the labels when they only are listed (issue 35).
     */
    llmAssisted: z.enum(['flag', 'block']).default('block'),
    /** The lowest `qrelay-reputation` score (0–100) a worker needs (src/pipeline/reputation.ts); unset: no minimum. New workers start at 50. */
    minReputation: z.number().int('expected a whole number from 0 to 100').min(0).max(100).optional(),
    /** Adaptive attention checks (src/hits/adaptive-checks.ts, docs/adaptive-checks.md): starter HITs with more checks for new workers; off unless `enabled`. */
    adaptiveChecks: AdaptiveChecks.extend({ enabled: z.boolean().default(false) }).prefault({}),
    /**
     * What a worker stopped for the batch (worker-level decisions: not doing the task, or
     * `llm-assisted` under `llmAssisted: block`) gets for their work not yet reviewed:
     * `discard` (paid, votes not counted, items collected again; the default) or `reject`
     * (not paid). `publish --worker-stop` overrides it; `--on-failure reject` implies `reject`.
     */
    workerStop: z.enum(['discard', 'reject']).default('discard'),
    /** The time estimate the reward is checked against. */
    estimatedSecondsPerItem: z.number().int().min(1).max(3600).default(45),
    estimatedOverheadSeconds: z.number().int().min(0).max(3600).default(30),
    qualificationRequirements: z.array(PresetQualification).max(10, 'MTurk allows at most 10 qualification requirements').default([]),
    /** Eligibility on Prolific (src/hits/prolific-filters.ts): its filters, else the requirements mapped; notes on what has no filter. */
    prolific: ProlificSettings.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.minReputation !== undefined && p.qualificationRequirements.length >= 10)
      ctx.addIssue({
        code: 'custom',
        path: ['minReputation'],
        message: "needs one of MTurk's 10 qualification requirements and qualificationRequirements uses them all: drop one",
      });
    if (!USD.test(p.reward)) return; // already reported
    const wage = hourlyPayCents(p);
    if (wage < FEDERAL_MINIMUM_WAGE_CENTS_PER_HOUR) {
      ctx.addIssue({
        code: 'custom',
        path: ['reward'],
        message:
          `$${p.reward} for an estimated ${estimatedHitSeconds(p)} s per HIT pays $${(wage / 100).toFixed(2)}/h, below the US federal minimum wage of $7.25/h: ` +
          'raise the reward or put fewer items in a HIT',
      });
    }
    if (p.assignmentDurationSeconds < estimatedHitSeconds(p)) {
      ctx.addIssue({
        code: 'custom',
        path: ['assignmentDurationSeconds'],
        message: `shorter than the estimated ${estimatedHitSeconds(p)} s a HIT takes: allow workers at least that (better twice as much)`,
      });
    }
  });
export type HitPreset = z.infer<typeof HitPreset>;

type PayTerms = Pick<HitPreset, 'reward' | 'itemsPerHit' | 'checksPerHit' | 'estimatedSecondsPerItem' | 'estimatedOverheadSeconds'>;

/** Estimated working time of one full HIT (real items and checks), in seconds. */
export function estimatedHitSeconds(p: Omit<PayTerms, 'reward'>): number {
  return (p.itemsPerHit + p.checksPerHit) * p.estimatedSecondsPerItem + p.estimatedOverheadSeconds;
}

/** Estimated pay per hour of work, in cents (rounded down). */
export function hourlyPayCents(p: PayTerms): number {
  return Math.floor((parseUsd(p.reward) * 3600) / Math.max(1, estimatedHitSeconds(p)));
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && IDENTIFIER.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out || '(the preset)';
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/** Parses and validates a preset's JSON text; errors name `source` and each bad field. */
export function parsePreset(text: string, source: string): HitPreset {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const at = /at position (\d+)/.exec(message);
    throw new UserError(
      `${source}: not valid JSON${at ? ` at ${lineAndColumn(text, Number(at[1]))}` : ''}: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
    );
  }
  const parsed = HitPreset.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys')
        return `${formatPath(issue.path)}: unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
      return `${formatPath(issue.path)}: ${issue.message}`;
    });
    throw new UserError(`${source}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export const QUALIFICATION_DIR = join(paths.presets, 'qualification');

/** The preset names in `dir` (files `<name>.json`). */
export function listPresets(dir: string = paths.presets): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/**
 * Loads a preset by name (`dream` -> `hits/dream.json`) or by file path, and checks that
 * every custom qualification it names has a test in `hits/qualification/`.
 */
export function loadPreset(nameOrFile: string, dir: string = paths.presets, qualificationDir: string = QUALIFICATION_DIR): HitPreset {
  const isFile = nameOrFile.endsWith('.json') || nameOrFile.includes('/');
  const file = isFile ? nameOrFile : join(dir, `${nameOrFile}.json`);
  const shown = relative(process.cwd(), file) || basename(file);
  if (!existsSync(file)) {
    const known = listPresets(dir);
    throw new UserError(
      isFile
        ? `preset file ${shown} does not exist`
        : `no preset named ${JSON.stringify(nameOrFile)} (looked for ${shown}); available: ${known.join(', ') || 'none'}`,
    );
  }
  const preset = parsePreset(readFileSync(file, 'utf8'), shown);
  preset.qualificationRequirements.forEach((q, i) => {
    if (q.custom && !existsSync(join(qualificationDir, `${q.custom}.json`))) {
      throw new UserError(
        `${shown}: qualificationRequirements[${i}].custom: no qualification test ${JSON.stringify(q.custom)} (expected ${relative(process.cwd(), join(qualificationDir, `${q.custom}.json`))})`,
      );
    }
  });
  return preset;
}

export function requiresMasters(preset: Pick<HitPreset, 'qualificationRequirements'>): boolean {
  const ids: string[] = Object.values(MASTERS_QUALIFICATION_IDS);
  return preset.qualificationRequirements.some((q) => q.masters === true || (q.id !== undefined && ids.includes(q.id)));
}

export interface QualificationTargetContext {
  /** `production` gets the production Masters id; every other target the sandbox's. */
  target: string;
  /** The QualificationTypeId created on this target for each custom test name. */
  customIds: Readonly<Record<string, string>>;
}

/** A requirement in the shape of MTurk's CreateHITType (its SDK's QualificationRequirement). */
export interface QualificationRequirement {
  QualificationTypeId: string;
  Comparator: QualificationComparator | undefined;
  IntegerValues?: number[];
  LocaleValues?: { Country: string; Subdivision?: string }[];
  ActionsGuarded?: PresetQualification['actionsGuarded'];
}

/** The preset's requirements as CreateHIT takes them, for one target. */
export function resolveQualificationRequirements(
  preset: Pick<HitPreset, 'qualificationRequirements'>,
  ctx: QualificationTargetContext,
): QualificationRequirement[] {
  return preset.qualificationRequirements.map((q, i): QualificationRequirement => {
    let id: string;
    if (q.masters) id = ctx.target === 'production' ? MASTERS_QUALIFICATION_IDS.production : MASTERS_QUALIFICATION_IDS.sandbox;
    else if (q.custom) {
      const created = ctx.customIds[q.custom];
      if (!created)
        throw new UserError(
          `qualificationRequirements[${i}]: the custom qualification ${JSON.stringify(q.custom)} has not been created on target ${ctx.target} yet`,
        );
      id = created;
    } else id = q.id as string;
    return {
      QualificationTypeId: id,
      Comparator: q.masters ? 'Exists' : q.comparator,
      ...(q.values && { IntegerValues: q.values }),
      ...(q.locales && {
        LocaleValues: q.locales.map((l) => ({ Country: l.country, ...(l.subdivision && { Subdivision: l.subdivision }) })),
      }),
      ...(q.actionsGuarded && { ActionsGuarded: q.actionsGuarded }),
    };
  });
}

/** Planning options for a batch published with this preset. */
export function presetPlanOptions(preset: HitPreset, seed: string): PlanOptions {
  return {
    seed,
    layout: {
      itemsPerHit: preset.itemsPerHit,
      checksPerHit: preset.checksPerHit,
      hideDebate: preset.hideDebate,
      frameHeight: preset.frameHeight,
      canary: preset.canary,
      ...(preset.adaptiveChecks.enabled && {
        adaptive: {
          starterHits: preset.adaptiveChecks.starterHits,
          starterChecks: preset.adaptiveChecks.starterChecks,
          expectedWorkers: preset.adaptiveChecks.expectedWorkers,
        },
      }),
    },
    pricing: { reward: preset.reward, assignmentsPerHit: preset.assignmentsPerHit, masters: requiresMasters(preset) },
  };
}

/**
 * What the pipeline does with a worker flagged `llm-assisted` under this preset: `flag` only
 * lists them with the evidence (reports, `qrelay workers`, `simulate --json`); `block` also
 * asks for the worker-level block. The one place the setting is read.
 */
export function llmAssistedAction(preset: Pick<HitPreset, 'llmAssisted'>): 'flag' | 'block' {
  return preset.llmAssisted;
}
