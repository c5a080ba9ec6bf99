import { describe, expect, it } from 'vitest';
import { loadPreset } from './presets.js';
import { prolificEligibility } from './prolific-filters.js';

describe('a preset on Prolific', () => {
  it('maps approval rate, approvals and country onto filters and says which requirements have none', () => {
    const got = prolificEligibility({
      qualificationRequirements: [
        { id: '000000000000000000L0', comparator: 'GreaterThan', values: [95] },
        { id: '00000000000000000040', comparator: 'GreaterThanOrEqualTo', values: [1000] },
        { id: '00000000000000000071', comparator: 'In', locales: [{ country: 'US' }, { country: 'GB' }] },
        { masters: true },
        { custom: 'dream-exam', comparator: 'GreaterThanOrEqualTo', values: [90] },
      ],
    });
    expect(got.filters).toEqual([
      { filter_id: 'approval_rate', selected_range: { lower: 96 } },
      { filter_id: 'approval_numbers', selected_range: { lower: 1000 } },
      { filter_id: 'current-country-of-residence', selected_values: ['US', 'GB'] },
    ]);
    expect(got.unmapped).toEqual([
      "MTurk's Masters qualification: Prolific has no equivalent, so it is left out",
      'the qualification test dream-exam: Prolific has no qualification tests, so participants are not tested first',
    ]);
  });

  it('takes the dream and lab presets’ own filters and says the exam has no Prolific equivalent', () => {
    const dream = prolificEligibility(loadPreset('dream'));
    expect(dream.filters.map((f) => f.filter_id)).toEqual(['approval_rate', 'approval_numbers']);
    expect(dream.unmapped.join('\n')).toMatch(/dream-exam qualification test has no Prolific equivalent/);
    const lab = prolificEligibility(loadPreset('lab'));
    expect(lab.filters).toEqual([]);
    expect(lab.unmapped.join('\n')).toMatch(/dream-exam/);
  });
});
