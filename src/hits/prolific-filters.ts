import type { HitPreset, PresetQualification } from './presets.js';
import { SYSTEM_QUALIFICATIONS } from './presets.js';

/**
 * A preset's eligibility on Prolific: its own `prolific.filters` when it gives them, else
 * its MTurk qualification requirements mapped onto Prolific's filters where one exists
 * (approval rate, number of approvals, country), and a line saying so for each that has
 * none (Masters, qualification tests, other types): Prolific has no qualification types.
 */

export interface ProlificFilter {
  filter_id: string;
  selected_values?: string[];
  selected_range?: { lower?: number; upper?: number };
}

export interface ProlificEligibility {
  filters: ProlificFilter[];
  /** One line per requirement with no Prolific filter, and the preset's own notes. */
  unmapped: string[];
}

function range(comparator: PresetQualification['comparator'], value: number): ProlificFilter['selected_range'] | undefined {
  switch (comparator) {
    case 'GreaterThan':
      return { lower: value + 1 };
    case 'GreaterThanOrEqualTo':
      return { lower: value };
    case 'LessThan':
      return { upper: value - 1 };
    case 'LessThanOrEqualTo':
      return { upper: value };
    case 'EqualTo':
      return { lower: value, upper: value };
    default:
      return undefined;
  }
}

function mapOne(q: PresetQualification): ProlificFilter | string {
  if (q.masters) return "MTurk's Masters qualification: Prolific has no equivalent, so it is left out";
  if (q.custom) return `the qualification test ${q.custom}: Prolific has no qualification tests, so participants are not tested first`;
  const value = q.values?.[0];
  if (q.id === SYSTEM_QUALIFICATIONS.PercentAssignmentsApproved && value !== undefined) {
    const r = range(q.comparator, value);
    if (r) return { filter_id: 'approval_rate', selected_range: r };
  }
  if (q.id === SYSTEM_QUALIFICATIONS.NumberHITsApproved && value !== undefined) {
    const r = range(q.comparator, value);
    if (r) return { filter_id: 'approval_numbers', selected_range: r };
  }
  if (q.id === SYSTEM_QUALIFICATIONS.Locale && q.locales && (q.comparator === 'EqualTo' || q.comparator === 'In')) {
    return { filter_id: 'current-country-of-residence', selected_values: [...new Set(q.locales.map((l) => l.country))] };
  }
  return `the qualification ${q.id ?? '?'} (${q.comparator ?? 'Exists'}): no Prolific filter matches it, so it is left out`;
}

export function prolificEligibility(preset: Pick<HitPreset, 'qualificationRequirements' | 'prolific'>): ProlificEligibility {
  const notes = preset.prolific?.notes ?? [];
  if (preset.prolific?.filters) return { filters: preset.prolific.filters, unmapped: notes };
  const filters: ProlificFilter[] = [];
  const unmapped: string[] = [];
  for (const q of preset.qualificationRequirements) {
    const mapped = mapOne(q);
    if (typeof mapped === 'string') unmapped.push(mapped);
    else filters.push(mapped);
  }
  return { filters, unmapped: [...unmapped, ...notes] };
}
