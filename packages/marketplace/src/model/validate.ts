import { model, shapeOf, type Shape } from './model.js';

/**
 * Request validation driven by the botocore model: required members, types, enums,
 * patterns, lengths and ranges, for every operation at once. The SDKs validate nothing,
 * so this is where a bad request is caught, with the member path in the message
 * (`QualificationRequirements.0.Comparator: ...`). Timestamps (epoch seconds on the wire)
 * become Dates; members the model does not know are dropped, as AWS services ignore them.
 */

export interface Issue {
  path: string;
  message: string;
}

export type ParseResult = { ok: true; value: Record<string, unknown> } | { ok: false; issues: Issue[] };

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function charLength(s: string): number {
  // code points, as AWS counts characters; the fast path covers strings without surrogates
  return /[\uD800-\uDFFF]/.test(s) ? [...s].length : s.length;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function checkRange(value: number, shape: { min?: number; max?: number }, path: string, issues: Issue[]): void {
  if (shape.min !== undefined && value < shape.min) issues.push({ path, message: `must be at least ${shape.min} (got ${value})` });
  if (shape.max !== undefined && value > shape.max) issues.push({ path, message: `must be at most ${shape.max} (got ${value})` });
}

function parseValue(shape: Shape, value: unknown, path: string, issues: Issue[]): unknown {
  switch (shape.type) {
    case 'structure': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        issues.push({ path, message: `expected an object, got ${typeName(value)}` });
        return undefined;
      }
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const name of shape.required ?? []) {
        if (input[name] === undefined || input[name] === null) issues.push({ path: join(path, name), message: 'is required' });
      }
      for (const [name, ref] of Object.entries(shape.members)) {
        const member = input[name];
        if (member === undefined || member === null) continue;
        const parsed = parseValue(shapeOf(ref.shape), member, join(path, name), issues);
        if (parsed !== undefined) out[name] = parsed;
      }
      return out;
    }
    case 'list': {
      if (!Array.isArray(value)) {
        issues.push({ path, message: `expected a list, got ${typeName(value)}` });
        return undefined;
      }
      if (shape.min !== undefined && value.length < shape.min)
        issues.push({ path, message: `must hold at least ${shape.min} items (got ${value.length})` });
      if (shape.max !== undefined && value.length > shape.max)
        issues.push({ path, message: `must hold at most ${shape.max} items (got ${value.length})` });
      const member = shapeOf(shape.member.shape);
      return value.map((item, i) => {
        if (item === null || item === undefined) {
          issues.push({ path: join(path, String(i)), message: 'must not be null' });
          return undefined;
        }
        return parseValue(member, item, join(path, String(i)), issues);
      });
    }
    case 'map': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        issues.push({ path, message: `expected an object, got ${typeName(value)}` });
        return undefined;
      }
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
        parseValue(shapeOf(shape.key.shape), key, join(path, key), issues);
        out[key] = parseValue(shapeOf(shape.value.shape), item, join(path, key), issues);
      }
      return out;
    }
    case 'string': {
      if (typeof value !== 'string') {
        issues.push({ path, message: `expected a string, got ${typeName(value)}` });
        return undefined;
      }
      if (shape.enum && !shape.enum.includes(value)) {
        issues.push({ path, message: `${show(value)} is not one of ${shape.enum.join(', ')}` });
      }
      const length = charLength(value);
      if (shape.min !== undefined && length < shape.min)
        issues.push({ path, message: `must be at least ${shape.min} characters long (got ${length})` });
      if (shape.max !== undefined && length > shape.max)
        issues.push({ path, message: `must be at most ${shape.max} characters long (got ${length})` });
      if (shape.pattern && !new RegExp(shape.pattern).test(value)) {
        issues.push({ path, message: `${show(value)} does not match the pattern ${shape.pattern}` });
      }
      return value;
    }
    case 'integer':
    case 'long': {
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        issues.push({ path, message: `expected a whole number, got ${typeof value === 'number' ? value : typeName(value)}` });
        return undefined;
      }
      if (shape.type === 'integer' && (value < INT32_MIN || value > INT32_MAX)) {
        issues.push({ path, message: `must fit in a 32-bit integer (got ${value})` });
      } else if (!Number.isSafeInteger(value)) {
        issues.push({ path, message: `is too large (got ${value})` });
      }
      checkRange(value, shape, path, issues);
      return value;
    }
    case 'double':
    case 'float': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        issues.push({ path, message: `expected a number, got ${typeName(value)}` });
        return undefined;
      }
      checkRange(value, shape, path, issues);
      return value;
    }
    case 'boolean': {
      if (typeof value !== 'boolean') {
        issues.push({ path, message: `expected true or false, got ${typeName(value)}` });
        return undefined;
      }
      return value;
    }
    case 'timestamp': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        issues.push({ path, message: `expected a timestamp in epoch seconds (a number), got ${typeName(value)}` });
        return undefined;
      }
      const date = new Date(Math.round(value * 1000));
      if (Number.isNaN(date.getTime())) {
        issues.push({ path, message: `is not a valid timestamp (got ${value})` });
        return undefined;
      }
      return date;
    }
    case 'blob':
      if (typeof value !== 'string') issues.push({ path, message: `expected base64 text, got ${typeName(value)}` });
      return value;
  }
}

function join(path: string, member: string): string {
  return path === '' ? member : `${path}.${member}`;
}

/** Validates an operation's input (the parsed JSON body) against its model shape. */
export function parseInput(operation: string, body: unknown): ParseResult {
  const op = model.operations[operation];
  if (!op) throw new Error(`unknown operation ${operation}`);
  if (!op.input) return { ok: true, value: {} };
  const issues: Issue[] = [];
  const value = parseValue(shapeOf(op.input.shape), body ?? {}, '', issues);
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, value: value as Record<string, unknown> };
}

/** Applies the model's constraints for one shape to a value (used for nested checks). */
export function issuesFor(shapeName: string, value: unknown, path: string): Issue[] {
  const issues: Issue[] = [];
  parseValue(shapeOf(shapeName), value, path, issues);
  return issues;
}
