import { describe, expect, it } from 'vitest';
import { isPairMeasure, KNOWN_MEASURES, measuresHelp, parseMeasure } from '../measure-names.js';
import { MEASURES } from './registry.js';

describe('measure registry', () => {
  it('derives the known forms in registry order', () => {
    expect(KNOWN_MEASURES).toBe('AP, AP@k, P@k, R@k, RR, RR@k, R-Prec, nDCG, nDCG@k, Success@k, Judged@k, Bpref, nDCG_bridge@k, Hole@k');
  });

  it('gives every name and alias one measure', () => {
    const spellings = MEASURES.flatMap((m) => [m.name, ...(m.aliases ?? [])]);
    expect(new Set(spellings).size).toBe(spellings.length);
    for (const m of MEASURES)
      for (const alias of m.aliases ?? []) expect(parseMeasure(`${alias}${m.cutoff === 'required' ? '@5' : ''}`).name).toBe(m.name);
  });

  it('takes its parameters from the definition: cutoff and rel=N', () => {
    expect(() => parseMeasure('Bpref@10')).toThrow(/Bpref takes no cutoff/);
    expect(() => parseMeasure('nDCG(rel=2)@10')).toThrow(/takes no rel=N/);
    expect(parseMeasure('P(rel=2)@10')).toMatchObject({ name: 'P', rel: 2, cutoff: 10 });
  });

  it('marks the measures of two qrels and notes them in the help', () => {
    expect(isPairMeasure(parseMeasure('Hole@10'))).toBe(true);
    expect(isPairMeasure(parseMeasure('nDCG@10'))).toBe(false);
    expect(measuresHelp()).toContain('R-Prec (or Rprec, RPrec)');
    expect(measuresHelp()).toContain('Hole@k (share of the top k relevant in the new qrels and unjudged in the base)');
  });
});
