import { describe, expect, it } from 'vitest';
import { stopLine } from './stop-line.js';

describe('stopLine', () => {
  it('lists what stopped in the order it opened, then what the next start continues', () => {
    expect(
      stopLine(
        ['the API at http://127.0.0.1:8080', 'the dev database at 127.0.0.1:27017', 'the marketplace at http://127.0.0.1:8090'],
        'the next `npm start` continues batch sample where it stopped',
      ),
    ).toBe(
      'stopped the API at http://127.0.0.1:8080, the dev database at 127.0.0.1:27017, and the marketplace at http://127.0.0.1:8090; the next `npm start` continues batch sample where it stopped',
    );
    expect(stopLine(['the API at http://h:1'], 'the next `qrelay serve` serves it again')).toBe(
      'stopped the API at http://h:1; the next `qrelay serve` serves it again',
    );
  });

  it('says so when nothing was running yet', () => {
    expect(stopLine([], 'the next `npm start` starts from the beginning')).toBe(
      'stopped before anything was running; the next `npm start` starts from the beginning',
    );
  });
});
