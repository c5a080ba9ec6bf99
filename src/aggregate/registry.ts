import type { AggregatorName } from './aggregator.js';

/**
 * The aggregators a batch can label with, one entry each (pure). Everything that names
 * one derives from here: the batch settings and the API's schemas (`AGGREGATOR_IDS`), the
 * stored label source, export-qrels' `--aggregate` choice (`short`), and the words the
 * reports print (`title`). How each one fits a batch's votes is in
 * quality/aggregators.ts, which the compiler keeps in step with this list.
 */
export interface AggregatorInfo {
  /** How crowd-kit names its class; the `aggregator` of an AggregationResult. */
  readonly className: AggregatorName;
  /** export-qrels' `--aggregate` value and the forecast's name for it. */
  readonly short: string;
  /** For people, in reports and messages. */
  readonly title: string;
  /** The qrels label source of the labels it decides (qrels/merge.ts). */
  readonly labelSource: `human-${string}`;
}

export const AGGREGATORS = {
  majority: { className: 'MajorityVote', short: 'majority', title: 'majority', labelSource: 'human-majority' },
  'dawid-skene': { className: 'DawidSkene', short: 'ds', title: 'Dawid–Skene', labelSource: 'human-dawid-skene' },
} as const satisfies Record<string, AggregatorInfo>;

/** The user-facing id: BatchSettings.aggregator, the API's `aggregator` and a label's `method`. */
export type AggregatorId = keyof typeof AGGREGATORS;
export type AggregatorShortName = (typeof AGGREGATORS)[AggregatorId]['short'];

/** The ids in registry order, the default first; a tuple, as z.enum wants it. */
export const AGGREGATOR_IDS = Object.keys(AGGREGATORS) as [AggregatorId, ...AggregatorId[]];
export const DEFAULT_AGGREGATOR: AggregatorId = AGGREGATOR_IDS[0];

/** export-qrels' names, in registry order (`majority`, `ds`). */
export const AGGREGATOR_SHORT_NAMES = AGGREGATOR_IDS.map((id) => AGGREGATORS[id].short) as [AggregatorShortName, ...AggregatorShortName[]];

/** The aggregator an export-qrels name stands for. */
export function aggregatorOfShortName(short: AggregatorShortName): AggregatorId {
  return AGGREGATOR_IDS.find((id) => AGGREGATORS[id].short === short) ?? DEFAULT_AGGREGATOR;
}
