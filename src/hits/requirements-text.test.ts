import { describe, expect, it } from 'vitest';
import { loadPreset } from './presets.js';
import { describeRequirements } from './requirements-text.js';

describe('describeRequirements', () => {
  it('lists every requirement of the dream preset, named', () => {
    expect(describeRequirements(loadPreset('dream'), 'local')).toEqual([
      'qualification requirements (3, on every HIT):',
      '  000000000000000000L0 (system: percent of assignments approved) GreaterThan 90',
      '  00000000000000000040 (system: number of HITs approved) GreaterThanOrEqualTo 500',
      '  custom dream-exam (qualification test hits/qualification/dream-exam.json; its type is created on the target) GreaterThanOrEqualTo 90',
    ]);
  });
  it('the lab preset keeps only the qualification test', () => {
    const lab = loadPreset('lab');
    expect(describeRequirements(lab, 'local')).toEqual([
      'qualification requirements (1, on every HIT):',
      expect.stringContaining('custom dream-exam'),
    ]);
    expect(lab.reward).toBe(loadPreset('dream').reward);
  });
  it('says when there are none, and names Masters, locales and guarded actions', () => {
    expect(describeRequirements({ qualificationRequirements: [] }, 'local')).toEqual([
      'qualification requirements: none (every worker on the target can take the HITs)',
    ]);
    const lines = describeRequirements(
      {
        qualificationRequirements: [
          { masters: true },
          {
            id: '00000000000000000071',
            comparator: 'In',
            locales: [{ country: 'US' }, { country: 'CA', subdivision: 'QC' }],
            actionsGuarded: 'Accept',
          },
        ],
      },
      'production',
    );
    expect(lines[1]).toBe('  Masters 2F1QJWKUDD8XADTFD2Q0G6UTO95ALH Exists');
    expect(lines[2]).toBe('  00000000000000000071 (system: locale) In US, CA-QC [guards Accept]');
  });
});
