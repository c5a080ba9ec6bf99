import { describe, expect, it } from 'vitest';
import { REPORT_FORMATS, REPORT_MEDIA_TYPES, ReportFormat } from './formats.js';

describe('report formats registry', () => {
  it('lists json, md, html and csv in that order, json first as the default', () => {
    expect(ReportFormat.options).toEqual(['json', 'md', 'html', 'csv']);
    expect(Object.keys(REPORT_FORMATS)).toEqual(ReportFormat.options);
  });

  it('derives the media types from the entries', () => {
    expect(REPORT_MEDIA_TYPES).toEqual({
      json: 'application/json; charset=utf-8',
      md: 'text/markdown; charset=utf-8',
      html: 'text/html; charset=utf-8',
      csv: 'text/csv; charset=utf-8; header=present',
    });
  });
});
