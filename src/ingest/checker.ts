import type { z } from 'zod';
import type { ConsensusLabel, EscalatedCase, GoldItem } from '../domain/cases.js';
import { aliasesOf, FIELD_ALIASES, resolveAliases, type AliasedField } from './aliases.js';
import { bridgeConsensus, bridgeEscalation, hasBridgeRounds, type BridgeOutcome } from './bridge.js';
import { FingerprintTable } from './fingerprints.js';
import { ignoredFields, IgnoredFieldTally, type IgnoredField } from './ignored-fields.js';
import { formatPath, quote, zodPathIssues, type IngestIssue, type PathIssue } from './issues.js';
import { parseJsonObject } from './json-line.js';
import { caseKey } from './keys.js';
import { ConsensusLabelInput, EscalatedCaseInput, GoldItemInput } from './schemas.js';

import type { IngestKind, InputFormat } from './kinds.js';

export { INGEST_KINDS, type IngestKind, type InputFormat } from './kinds.js';

export interface RecordOfKind {
  escalations: EscalatedCase;
  consensus: ConsensusLabel;
  gold: GoldItem;
}
export type RecordOf<K extends IngestKind> = RecordOfKind[K];

export type LineOutcome<R> =
  | { type: 'blank' }
  | { type: 'record'; record: R }
  /** The same key with the same content as an earlier line: ignored. */
  | { type: 'duplicate'; firstLine: number }
  /** A BRIDGE row of the other kind (consensus when reading escalations, or the reverse). */
  | { type: 'skipped' }
  | { type: 'issues'; issues: IngestIssue[] };

const KIND_NOUNS: Record<IngestKind, string> = {
  escalations: 'an escalated case',
  consensus: 'a consensus label',
  gold: 'a gold item',
};

const FORMAT_NAMES: Record<InputFormat, string> = {
  canonical: 'the canonical format',
  bridge: 'the BRIDGE format (round_1, round_2, ...)',
};

const ALIASED_FIELDS: readonly AliasedField[] = ['query_id', 'chunk_id', 'query', 'chunk', 'answers'];

const hasField = (record: Record<string, unknown>, field: AliasedField) => FIELD_ALIASES[field].some((name) => Object.hasOwn(record, name));

/** What a canonical-format record looks like, judged by its fields alone. */
export function lookalikeKind(record: Record<string, unknown>): IngestKind | undefined {
  // a gold item may carry its own debate (docs/input-formats.md); its `label` tells it apart
  if (Object.hasOwn(record, 'debate')) return record['label'] === undefined || record['label'] === null ? 'escalations' : 'gold';
  if (!Object.hasOwn(record, 'label')) return undefined;
  return hasField(record, 'query') || hasField(record, 'chunk') ? 'gold' : 'consensus';
}

function canonicalOutcome<R>(schema: z.ZodType<R>, value: Record<string, unknown>): BridgeOutcome<R> {
  const parsed = schema.safeParse(value, { reportInput: true });
  return parsed.success ? { type: 'record', record: parsed.data } : { type: 'issues', issues: zodPathIssues(parsed.error) };
}

/**
 * Validates the lines of one file, in order: JSON, format (decided by the first line that
 * holds a JSON object; a later line in the other format is an error), the record's shape,
 * and duplicate keys. Pure apart from hashing; one instance per file and pass.
 */
export class RecordChecker<K extends IngestKind> {
  private detected: { format: InputFormat; line: number } | undefined;
  private readonly seen = new FingerprintTable();
  private readonly ignored = new IgnoredFieldTally();

  constructor(readonly kind: K) {}

  get format(): InputFormat | undefined {
    return this.detected?.format;
  }

  /** Fields of the valid lines so far that qrelay does not read (for a warning). */
  get ignoredFields(): IgnoredField[] {
    return this.ignored.list;
  }

  check(line: number, text: string): LineOutcome<RecordOf<K>> {
    if (text.trim() === '') return { type: 'blank' };
    const json = parseJsonObject(text);
    if (!json.ok) return this.fail(line, [{ path: [], reason: json.reason }]);

    const { value, renamed, issues: aliasIssues } = resolveAliases(json.value, ALIASED_FIELDS);
    const format: InputFormat = hasBridgeRounds(value) ? 'bridge' : 'canonical';
    const firstObject = this.detected === undefined;
    if (this.kind === 'gold' && format === 'bridge') {
      return this.fail(line, [
        {
          path: [],
          reason:
            'a BRIDGE debate row (round_1, round_2, ...) is not a gold item: gold items are {query_id, query, answers, chunk_id, chunk, label}',
        },
      ]);
    }
    this.detected ??= { format, line };
    if (format !== this.detected.format) {
      const reason = `this line is in ${FORMAT_NAMES[format]}, but line ${this.detected.line} set the file's format to ${FORMAT_NAMES[this.detected.format]}: put each format in a file of its own`;
      return this.fail(line, [{ path: [], reason }]);
    }

    const outcome = this.parse(value, format);
    if (outcome.type === 'issues' || aliasIssues.length > 0) {
      const issues = [...aliasIssues, ...(outcome.type === 'issues' ? outcome.issues : [])];
      const hint = firstObject && format === 'canonical' ? this.kindHint(value) : [];
      return this.fail(line, [...hint, ...issues], renamed);
    }
    this.ignored.add(line, ignoredFields(value, format, this.kind));
    if (outcome.type === 'skipped') return outcome;
    return this.deduplicate(line, outcome.record);
  }

  private parse(value: Record<string, unknown>, format: InputFormat): BridgeOutcome<RecordOf<K>> {
    // The casts tie each kind to its schema; RecordOfKind states the same pairing.
    switch (this.kind) {
      case 'escalations':
        return (format === 'bridge' ? bridgeEscalation(value) : canonicalOutcome(EscalatedCaseInput, value)) as BridgeOutcome<RecordOf<K>>;
      case 'consensus':
        return (format === 'bridge' ? bridgeConsensus(value) : canonicalOutcome(ConsensusLabelInput, value)) as BridgeOutcome<RecordOf<K>>;
      default:
        return canonicalOutcome(GoldItemInput, value) as BridgeOutcome<RecordOf<K>>;
    }
  }

  private kindHint(value: Record<string, unknown>): PathIssue[] {
    const looksLike = lookalikeKind(value);
    if (looksLike === undefined || looksLike === this.kind) return [];
    return [
      {
        path: [],
        reason: `this looks like ${KIND_NOUNS[looksLike]}, but the file is being read as ${this.kind}: should it be imported as ${looksLike}?`,
      },
    ];
  }

  private deduplicate(line: number, record: RecordOf<K>): LineOutcome<RecordOf<K>> {
    const seen = this.seen.check(caseKey(record.query_id, record.chunk_id), JSON.stringify(record), line);
    if (seen.status === 'new') return { type: 'record', record };
    if (seen.status === 'identical') return { type: 'duplicate', firstLine: seen.firstLine };
    const reason = `query_id ${quote(record.query_id)} with chunk_id ${quote(record.chunk_id)} already appeared on line ${seen.firstLine} with different content: keep one of the two lines`;
    return { type: 'issues', issues: [{ line, field: '', reason }] };
  }

  private fail(line: number, issues: PathIssue[], renamed: ReadonlyMap<string, string> = new Map()): LineOutcome<never> {
    return {
      type: 'issues',
      issues: issues.map(({ path, reason }) => {
        const [head, ...rest] = path;
        const source = typeof head === 'string' ? renamed.get(head) : undefined;
        const others = typeof head === 'string' && rest.length === 0 && reason.startsWith('required but missing') ? aliasesOf(head) : [];
        return {
          line,
          field: formatPath(source === undefined ? path : [source, ...rest]),
          reason: others.length > 0 ? `${reason} (also accepted as ${others.join(' or ')})` : reason,
        };
      }),
    };
  }
}
