import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseForecast } from '../../bench/support/lifecycle.js';

/** The forecast the lifecycle bench reads from `qrelay simulate --json` (bench/support/lifecycle.ts). */

const forecast = {
  batch: 'scale-sim',
  assignments: 1365,
  fleissKappa: 0.776,
  accuracy: { balancedAccuracy: 0.933, accuracy: 0.94 },
  cost: { total: 1638, quote: 1623.6, extraAssignments: 12, discardedAssignments: 17, perLabel: 0.4 },
  latency: { lastVoteSeconds: 44_640, p50Seconds: 3600 },
  votes: [],
  workers: [
    { workerId: 'AW1', kind: 'spammer', assignments: 3, blocked: true },
    { workerId: 'AW2', kind: 'diligent', assignments: 5, blocked: false },
  ],
  wall: { copySeconds: 1.5, publishSeconds: 4.4, crowdSeconds: 10.6, roundsSeconds: 28.2, rounds: 68, endSeconds: 0.9 },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseForecast', () => {
  it('reads the forecast line, and only the figures the bench prints', () => {
    const parsed = parseForecast(`${JSON.stringify(forecast)}\n`);
    expect(parsed).toEqual({
      assignments: 1365,
      fleissKappa: 0.776,
      accuracy: { balancedAccuracy: 0.933 },
      cost: { total: 1638, quote: 1623.6, extraAssignments: 12, discardedAssignments: 17 },
      latency: { lastVoteSeconds: 44_640 },
      workers: [{ blocked: true }, { blocked: false }],
      wall: forecast.wall,
    });
  });

  it('takes the last JSON line when something else wrote on stdout, and says so on stderr', () => {
    const said = vi.spyOn(console, 'error').mockImplementation(() => {});
    const parsed = parseForecast(`a library's notice\n{"not": "the forecast"}\n${JSON.stringify(forecast)}\n\n`);
    expect(parsed.assignments).toBe(1365);
    expect(said).toHaveBeenCalledOnce();
    expect(String(said.mock.calls[0]![0])).toMatch(/wrote 2 line\(s\) besides its forecast on stdout \(they belong on stderr\)/);
  });

  it('keeps null figures of a run without a truth file', () => {
    const parsed = parseForecast(JSON.stringify({ ...forecast, fleissKappa: null, accuracy: null, latency: { lastVoteSeconds: null } }));
    expect(parsed).toMatchObject({ fleissKappa: null, accuracy: null, latency: { lastVoteSeconds: null } });
  });

  it('names what is missing or unreadable', () => {
    expect(() => parseForecast('')).toThrow(/wrote no JSON object on stdout/);
    expect(() => parseForecast('{"assignments": 3,')).toThrow(/the last JSON line of qrelay simulate --json does not parse/);
    const { wall: _wall, ...withoutWall } = forecast;
    const { workers: _workers, ...withoutWorkers } = forecast;
    expect(() => parseForecast(JSON.stringify(withoutWorkers))).toThrow(/lacks what the benchmark reads[\s\S]*workers/);
    expect(() => parseForecast(JSON.stringify(withoutWall))).toThrow(/lacks what the benchmark reads[\s\S]*wall/);
    expect(() => parseForecast(JSON.stringify({ ...forecast, wall: { ...forecast.wall, crowdSeconds: -1 } }))).toThrow(/crowdSeconds/);
  });
});
