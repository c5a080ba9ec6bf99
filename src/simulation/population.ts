import { z } from 'zod';

/**
 * A simulated worker population, as a JSON profile (samples/population.json is the
 * default one). Every field is documented here and in README.md beside it. Shares
 * are fractions from 0 to 1; durations are marketplace (simulated) seconds.
 */

const share = z.number().min(0).max(1);

/** Beta(alpha, beta): mean alpha / (alpha + beta); larger alpha + beta, less spread. */
const betaDistribution = z.object({ alpha: z.number().positive(), beta: z.number().positive() }).strict();

/** Uniform on [min, max]: drawn per worker (or per pair). */
const uniformRange = z
  .object({ min: share, max: share })
  .strict()
  .refine((r) => r.min <= r.max, { message: 'min is above max', path: ['max'] });

/**
 * The defaults of the fields that were once required, so that a file naming only `size`
 * and `shares` works as docs/population.md promises: the values of the default population
 * (samples/population.json), whose accuracies and time per item are the ones calibrated
 * against DREAM's human study.
 */
export const POPULATION_DEFAULTS = {
  seed: 'qrelay-default-population',
  arrivalsPerHour: 40,
  accuracy: { relevant: { alpha: 48, beta: 2 }, notRelevant: { alpha: 46, beta: 4 } },
  medianSeconds: 45,
} as const;

export const WORKER_KINDS = [
  'diligent',
  'spammer',
  'alwaysYes',
  'alwaysNo',
  'llm',
  'fatigue',
  'quitter',
  'honest',
  'careless',
  'copier',
] as const;
export type WorkerKind = (typeof WORKER_KINDS)[number];

export const populationSchema = z
  .object({
    /** Free text for people reading the file; ignored. */
    notes: z.array(z.string()).optional(),
    /** Makes a run repeatable: the same seed gives the same workers, answers and timings. */
    seed: z
      .union([z.string().min(1).max(100), z.number().int()])
      .default(POPULATION_DEFAULTS.seed)
      .transform(String),
    /** Number of workers (accounts `A<prefix>...` created or updated when the population is loaded). */
    size: z.number().int().min(1).max(5000),
    /** Worker ids are `A` + idPrefix + a tag of the seed + the worker's number. */
    idPrefix: z
      .string()
      .regex(/^[A-Z0-9]{1,12}$/, 'capital letters and digits, at most 12')
      .default('SIM'),
    /** Visits per simulated hour (a Poisson process); each visit brings one idle worker, drawn at random. */
    arrivalsPerHour: z.number().positive().max(1_000_000).default(POPULATION_DEFAULTS.arrivalsPerHour),
    /** Mean number of HITs a worker does in one visit (geometric, at least 1); a worker leaves early when no HIT is left. */
    hitsPerVisit: z.number().min(1).max(100_000).default(10),
    /** Shares of the worker kinds; the rest are diligent workers. */
    shares: z
      .object({
        /** Answer at random (yes or no with even odds). */
        spammer: share.default(0),
        /** Always answer yes. */
        alwaysYes: share.default(0),
        /** Always answer no. */
        alwaysNo: share.default(0),
        /** LLM-assisted: paste each item into an LLM and give its verdict (see `llm`). */
        llm: share.default(0),
        /** Diligent at first, less accurate as a session goes on (see `fatigue`). */
        fatigue: share.default(0),
        /** Diligent answers, but return or abandon most of what they accept (`quitRate`). */
        quitter: share.default(0),
        /** Honest: answer every item, attention checks included, right with one accuracy of their own (see `honest`); the debate does not move them. */
        honest: share.default(0),
        /** Careful, then careless from a change point on (see `careless`). */
        careless: share.default(0),
        /** Copiers: paired, each pair answers from one shared source (see `copying`). */
        copier: share.default(0),
      })
      .strict()
      .refine(
        (s) => s.spammer + s.alwaysYes + s.alwaysNo + s.llm + s.fatigue + s.quitter + s.honest + s.careless + s.copier <= 1 + 1e-9,
        'the shares add up to more than 1',
      )
      .prefault({}),
    /**
     * Diligent workers' accuracy, drawn per worker for each true class: `relevant` is the
     * chance of answering yes when the truth is yes, `notRelevant` of answering no when it is no.
     */
    accuracy: z
      .object({
        relevant: betaDistribution.default(POPULATION_DEFAULTS.accuracy.relevant),
        notRelevant: betaDistribution.default(POPULATION_DEFAULTS.accuracy.notRelevant),
      })
      .strict()
      .prefault({}),
    /** How often an LLM-assisted worker gives the LLM's verdict (else their own judgment). */
    llmAgreement: share.default(1),
    /**
     * The one LLM all LLM-assisted workers paste into: its verdict on an item is the same
     * for all of them. On attention checks (easy, known answers) it is right `checkAccuracy`
     * of the time; on escalated items (where LLMs disagreed) it sides with one of the
     * debating agents (the oracle's `model`) `agentAgreement` of the time. LLM-assisted
     * workers take `timeFactor` of a careful worker's time per item.
     */
    llm: z
      .object({
        checkAccuracy: share.default(0.97),
        agentAgreement: share.default(0.9),
        timeFactor: z.number().positive().max(1).default(0.45),
        /** Share of LLM-assisted workers who copy an item into an LLM in another tab or window (a copy and a focus loss per item); the others use a browser extension or another device, which the page does not see. */
        tabShare: share.default(0.7),
        /** Share of LLM-answered items on which the worker also pastes the LLM's explanation into the comment field. */
        commentShare: share.default(0.1),
        /** The chance that the LLM follows a hidden instruction its input carried (a canary) and repeats its code word. */
        canaryEcho: share.default(0.5),
        /**
         * When set, the LLM is right this often on every item, attention checks and escalated
         * items alike, whatever the debating agents said (a model other than the debate's);
         * `checkAccuracy` and `agentAgreement` then do not apply.
         */
        accuracy: share.optional(),
      })
      .strict()
      .prefault({}),
    /**
     * Reading the debate shown on the page. Per worker, the chance of reading an item's
     * debate carefully is drawn from `careful`. A careful reader is led by the arguments to
     * the quoted evidence and, `gain` of the time, to the verdict the evidence supports (the
     * truth, except on the `misleading` share of items, where the evidence quoted points the
     * wrong way for everyone); otherwise judges alone. A careless reader goes with the agent
     * whose text sounds more confident `sway` of the time (when one does), else judges alone.
     */
    debate: z
      .object({
        careful: betaDistribution.default({ alpha: 17, beta: 3 }),
        gain: share.default(0.95),
        sway: share.default(0.6),
        misleading: share.default(0.05),
      })
      .strict()
      .prefault({}),
    /**
     * Items: a share of escalated items is hard (workers' accuracy on them is `hardAccuracy`,
     * before any help from the debate). Without a truth file, an item's hidden truth is drawn:
     * relevant with `relevantShare`.
     */
    items: z
      .object({ hardShare: share.default(0.15), hardAccuracy: share.default(0.43), relevantShare: share.default(0.4) })
      .strict()
      .prefault({}),
    /** Fatigue workers: accuracy (above chance) shrinks by `perItem` for every item done in a visit, down to `floor` of it. */
    fatigue: z
      .object({ perItem: share.default(0.03), floor: share.default(0.2) })
      .strict()
      .prefault({}),
    /** Honest workers: each draws one accuracy, uniform on this range, for checks and items of both classes alike. */
    honest: z
      .object({ accuracy: uniformRange.default({ min: 0.8, max: 0.97 }) })
      .strict()
      .prefault({}),
    /**
     * Careful-then-careless workers: they answer as diligent workers (their accuracy drawn from
     * `accuracy`) for their first N assignments, N drawn per worker uniformly among the
     * integers of `after`; from their (N+1)th assignment on they answer `answer` (`random`:
     * yes or no with even odds; `yes`, `no`: always that) at the fast workers' pace (`workTime.fastFactor`).
     */
    careless: z
      .object({
        after: z
          .object({ min: z.number().int().min(0).max(10_000), max: z.number().int().min(0).max(10_000) })
          .strict()
          .refine((r) => r.min <= r.max, { message: 'min is above max', path: ['max'] })
          .default({ min: 2, max: 6 }),
        answer: z.enum(['random', 'yes', 'no']).default('random'),
      })
      .strict()
      .prefault({}),
    /**
     * Copiers, paired in the order they were dealt (an odd one out works alone): a pair has
     * one accuracy, drawn uniformly from `accuracy`, and one answer per item, right with that
     * accuracy (checks included); each member gives the pair's answer `rate` of the time, else
     * their own answer at the same accuracy.
     */
    copying: z
      .object({ accuracy: uniformRange.default({ min: 0.6, max: 0.8 }), rate: share.default(1) })
      .strict()
      .prefault({}),
    /** Page events of people working on their own (every worker on an item not sent to an LLM): per item, the chance of leaving the page once (another tab, a message) and of copying some text (to look a term up). */
    events: z
      .object({ focusLoss: share.default(0.05), copy: share.default(0.02) })
      .strict()
      .prefault({}),
    /** Quitters: the share of their accepted assignments returned or abandoned (half each). */
    quitRate: share.default(0.6),
    workTime: z
      .object({
        /** Median time a diligent worker spends on one item of a HIT page. */
        medianSeconds: z.number().positive().max(86_400).default(POPULATION_DEFAULTS.medianSeconds),
        /** Log-normal spread of one item's time around the worker's median. */
        sigma: z.number().min(0).max(3).default(0.5),
        /** Log-normal spread of workers' medians around medianSeconds. */
        workerSigma: z.number().min(0).max(3).default(0.3),
        /** Time factor of spammers and always-yes/no workers (they do not read). */
        fastFactor: z.number().positive().max(1).default(0.3),
      })
      .strict()
      .prefault({}),
    /** Share of accepted assignments a worker walks away from (the marketplace abandons them at their deadline). */
    abandonRate: share.default(0),
    /** Share of accepted assignments returned part-way through. */
    returnRate: share.default(0),
    /** Per worker: the chance of answering each qualification test question right. */
    qualificationSkill: betaDistribution.default({ alpha: 19, beta: 1 }),
    /** What the system qualifications see. */
    profile: z
      .object({
        /** Share of a worker's earlier work (baseline) that was approved: PercentAssignmentsApproved. */
        approvalRate: betaDistribution.default({ alpha: 98, beta: 2 }),
        /** Earlier approved HITs (NumberHITsApproved): log-normal with this median and spread. */
        approvedHits: z
          .object({ median: z.number().min(0), sigma: z.number().min(0).max(5).default(1) })
          .strict()
          .prefault({ median: 2000 }),
        /** Where workers are (Locale): countries (ISO 3166) and optional subdivisions, with shares. */
        locales: z
          .array(
            z
              .object({
                country: z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166 country code such as US'),
                subdivision: z
                  .string()
                  .regex(/^[A-Z0-9]{1,3}$/, 'an ISO 3166-2 subdivision such as WA')
                  .optional(),
                share: z.number().positive(),
              })
              .strict(),
          )
          .min(1)
          .default([{ country: 'US', share: 1 }]),
        /** Share holding the Masters qualification. */
        mastersShare: share.default(0),
        /** Share confirmed 18 or older (Adult). */
        adultShare: share.default(1),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .refine((p) => p.abandonRate + p.returnRate <= 1 + 1e-9, {
    message: 'abandonRate + returnRate add up to more than 1',
    path: ['returnRate'],
  });

export type PopulationProfile = z.output<typeof populationSchema>;
export type PopulationInput = z.input<typeof populationSchema>;

export interface ProfileIssue {
  /** The field (`shares.spammer`, `profile.locales.0.country`); '' for the profile as a whole. */
  path: string;
  message: string;
}

/** Validates a profile; issues name the field (`shares.spammer`, `profile.locales.0.country`). */
export function checkPopulation(value: unknown): { ok: true; profile: PopulationProfile } | { ok: false; issues: ProfileIssue[] } {
  const r = populationSchema.safeParse(value);
  if (r.success) return { ok: true, profile: r.data };
  return { ok: false, issues: r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) };
}
