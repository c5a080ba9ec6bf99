import { describe, expect, it } from 'vitest';
import { BAR_WIDTH, createProgress, formatBar, formatDuration, formatStageLine } from './progress.js';

const ESC = String.fromCharCode(0x1b);
const ERASE_LINE = `\r${ESC}[2K`;

const sink = () => {
  const chunks: string[] = [];
  return { chunks, out: { write: (t: string) => chunks.push(t) } };
};

describe('progress formatting', () => {
  it('draws a bar of the share done, clamped, empty for an unknown total', () => {
    expect(formatBar(0, 10, 10)).toBe('[░░░░░░░░░░]');
    expect(formatBar(5, 10, 10)).toBe('[█████░░░░░]');
    expect(formatBar(12, 10, 10)).toBe('[██████████]');
    expect(formatBar(3, 0, 4)).toBe('[░░░░]');
    expect([...formatBar(1, 3)].length).toBe(BAR_WIDTH + 2);
  });

  it('writes short durations', () => {
    expect(formatDuration(0.25)).toBe('0.3s');
    expect(formatDuration(42.4)).toBe('42s');
    expect(formatDuration(65)).toBe('1m05s');
    expect(formatDuration(3 * 3600 + 14 * 60 + 9)).toBe('3h14m');
    expect(formatDuration(2 * 86_400 + 5 * 3600)).toBe('2d05h');
    expect(formatDuration(Number.NaN)).toBe('–');
  });

  it('puts name, bar, counts, note and time on one line', () => {
    const line = formatStageLine({ name: 'work', unit: 'items', done: 3, total: 6, note: '9 assignments', elapsedSeconds: 2 });
    expect(line).toBe(`work       ${formatBar(3, 6)} 3/6 items · 9 assignments · 2.0s`);
    expect(formatStageLine({ name: 'publish', unit: 'HITs', done: 2, total: 0, elapsedSeconds: 0 }, false)).toBe(
      'publish    2 HITs · 0.0s',
    );
  });
});

describe('createProgress', () => {
  it('on a terminal redraws the stage line in place and ends it when the stage finishes', () => {
    const { chunks, out } = sink();
    const p = createProgress(out, { terminal: true });
    const s = p.stage('import', { total: 3, unit: 'files' });
    s.update(1);
    s.finish('done');
    expect(chunks.every((c) => c.startsWith(ERASE_LINE))).toBe(true);
    expect(chunks.at(-1)).toMatch(new RegExp(`^${ERASE_LINE.replace('[', '\\[')} {2}import {5}\\[█+░+\\] 1/3 files · done · .*\\n$`));
    expect(chunks.slice(0, -1).some((c) => c.endsWith('\n'))).toBe(false);
  });

  it('without a terminal prints a start line, throttled updates and an end line, never control characters', () => {
    const { chunks, out } = sink();
    const p = createProgress(out, { terminal: false, everyMs: 60_000 });
    const s = p.stage('work', { total: 10, unit: 'items' });
    for (let i = 1; i <= 9; i++) s.update(i);
    s.finish('all in');
    s.update(10); // after the end: ignored
    p.line('import     already done');
    expect(chunks).toEqual([
      'work: started\n',
      expect.stringMatching(/^work: 9\/10 items · all in · .* · done\n$/),
      'import     already done\n',
    ]);
    expect(chunks.join('')).not.toContain('\r');
    expect(chunks.join('')).not.toContain(ESC);
  });

  it('finishes the previous stage when the next one starts', () => {
    const { chunks, out } = sink();
    const p = createProgress(out, { terminal: false });
    p.stage('a', { total: 1, unit: 'x' });
    p.stage('b', { total: 1, unit: 'x' });
    expect(chunks.map((c) => c.split(':')[0])).toEqual(['a', 'a', 'b']);
  });
});
