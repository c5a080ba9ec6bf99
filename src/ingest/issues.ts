import type { z } from 'zod';
import { UserError } from '../errors.js';
import { JUDGMENT_HINT } from './labels.js';

/**
 * One problem in an input file. `line` counts from 1 (0: the file as a whole); `field` is
 * the path inside the line's record as the file spells it (`debate[2].label`), empty when
 * the problem is the line itself.
 */
export interface IngestIssue {
  line: number;
  field: string;
  reason: string;
}

/** A problem inside one record, before it is placed on a line. */
export interface PathIssue {
  path: readonly PropertyKey[];
  reason: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** `["debate", 2, "label"]` -> `debate[2].label`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && IDENTIFIER.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

// C1 controls, bidirectional overrides and line/paragraph separators: invisible or
// misleading in a terminal, so they are written as escapes too.
const UNSAFE = /[\u0080-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A text from the input, quoted for a message: JSON string syntax (so control characters
 * are escaped), shortened to `max` characters.
 */
export function quote(text: string, max = 60): string {
  const short = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(short).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A value from the input as a message shows it: `"maybe"`, `42`, `a list`, `an object`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (typeof value === 'object') return 'an object';
  return String(value);
}

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list ([...])',
  object: 'an object ({...})',
  null: 'null',
};

function plural(n: number | bigint, word: string): string {
  return `${n} ${word}${n === 1 || n === 1n ? '' : 's'}`;
}

function choices(values: readonly unknown[]): string {
  const quoted = values.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** A researcher-readable reason for one zod issue (validated with `reportInput: true`). */
export function zodReason(issue: z.core.$ZodIssue): string {
  const got = 'input' in issue && issue.input !== undefined ? `, got ${describeValue(issue.input)}` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required but missing';
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}${got}`;
    case 'invalid_value': {
      if (issue.input === undefined) return 'required but missing';
      const isJudgment = issue.values.length === 2 && issue.values.includes('yes') && issue.values.includes('no');
      return `expected ${choices(issue.values)}${got}${isJudgment ? ` (${JUDGMENT_HINT})` : ''}`;
    }
    case 'too_small':
      if (issue.origin === 'string')
        return issue.minimum === 1 ? 'must not be empty' : `must be at least ${plural(issue.minimum, 'character')} long`;
      if (issue.origin === 'array') return `must hold at least ${plural(issue.minimum, 'item')}`;
      return `must be at least ${issue.minimum}${got}`;
    case 'too_big':
      if (issue.origin === 'string') {
        const length = typeof issue.input === 'string' ? ` (it has ${issue.input.length})` : '';
        return `must be at most ${plural(issue.maximum, 'character')} long${length}`;
      }
      if (issue.origin === 'array') return `must hold at most ${plural(issue.maximum, 'item')}`;
      return `must be at most ${issue.maximum}${got}`;
    default:
      return issue.message;
  }
}

/** The issues of a failed zod validation, each with its path. */
export function zodPathIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): PathIssue[] {
  return error.issues.map((issue) => ({ path: [...prefix, ...issue.path], reason: zodReason(issue) }));
}

/** `escalations.jsonl line 17: debate[2].label: expected "yes" or "no", got "maybe"` */
export function formatIssue(file: string, issue: IngestIssue): string {
  const place = issue.line > 0 ? `${file} line ${issue.line}` : file;
  return issue.field ? `${place}: ${issue.field}: ${issue.reason}` : `${place}: ${issue.reason}`;
}

/** A bad line met while streaming records: the message names file, line, field, reason. */
export class IngestError extends UserError {
  constructor(
    readonly file: string,
    readonly issue: IngestIssue,
  ) {
    super(formatIssue(file, issue));
    this.name = 'IngestError';
  }
}
