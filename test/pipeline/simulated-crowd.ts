import { finalLabels, type EscalatedCase, type GoldItem } from '../../src/domain/cases.js';
import { simKey } from '../../src/hits/index.js';
import type { MarketplaceHarness } from '../marketplace/support.js';
import { sampleLines } from './support.js';

/** A simulated population on the test's marketplace, driven through its admin routes. */

export async function simulationAdmin(h: MarketplaceHarness, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${h.running.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${h.running.adminToken}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

export type OracleEntries = Record<string, { truth: 'yes' | 'no'; model?: 'yes' | 'no'; check?: boolean }>;

/** The oracle of the sample's first `cases` cases: page key -> the hidden truth (and agent A's final label as the model's); gold labels for checks. */
export function sampleOracle(cases: number): OracleEntries {
  const entries: OracleEntries = {};
  for (const line of sampleLines('escalations.jsonl').slice(0, cases)) {
    const c = JSON.parse(line) as EscalatedCase;
    entries[simKey(c.query_id, c.chunk_id)] = { truth: c.hidden_label!, model: finalLabels(c.debate).get('A') ?? c.hidden_label! };
  }
  for (const line of sampleLines('gold.jsonl')) {
    const g = JSON.parse(line) as GoldItem;
    // an attention check: an easy item, not one of the hard escalated ones
    entries[simKey(g.query_id, g.chunk_id)] = { truth: g.label, check: true };
  }
  return entries;
}
