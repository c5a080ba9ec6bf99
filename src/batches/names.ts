import { z } from 'zod';
import { UserError } from '../errors.js';

/** Batch names key every document of the batch (`${batch}|...`), so `|` and spaces are out. */
export const BatchName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'expected 1-100 letters, digits, ".", "_" or "-", starting with a letter or digit');

export function checkBatchName(name: string, where = 'batch name'): string {
  const parsed = BatchName.safeParse(name);
  if (!parsed.success) throw new UserError(`${where} ${JSON.stringify(name)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** A real item of a batch; also the `_id` of its record and its label. */
export const itemId = (batch: string, caseKey: string): string => `${batch}|${caseKey}`;
/** An attention check within a HIT (scored per HIT, never labelled). */
export const checkItemId = (caseKey: string): string => `check|${caseKey}`;
/** Matches the `_id`s of a batch's documents (`${batch}|...`): a filter for a collection without a `batch` field. */
export const batchIdPrefix = (batch: string): RegExp => new RegExp(`^${batch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\|`);
export const hitDocId = (batch: string, index: number): string => `${batch}|${index}`;
/** The RequesterAnnotation of a HIT: how a HIT is recognised on the platform. */
export const hitAnnotation = (batch: string, index: number, attempt: number): string => `qrelay:${batch}|${index}|${attempt}`;
