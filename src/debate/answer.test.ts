import { describe, expect, it } from 'vitest';
import {
  capText,
  jsonObjectsIn,
  MAX_REASON_CHARS,
  MAX_REFERENCE_CHARS,
  MAX_REFERENCES,
  parseAgentAnswer,
  parseFilterAnswer,
  reaskMessage,
} from './answer.js';

describe('parseAgentAnswer', () => {
  it('reads the template object', () => {
    expect(parseAgentAnswer('{"reference": ["s1", "s2"], "reason": "r", "response": "yes"}')).toEqual({
      ok: true,
      value: { label: 'yes', reasoning: 'r', references: ['s1', 's2'] },
    });
  });
  it('reads it inside a code fence, with text around, keys and values in any case', () => {
    const text = 'Sure.\n```json\n{"Reference": [], "REASON": "because", "Response": "NO."}\n```\nDone.';
    expect(parseAgentAnswer(text)).toEqual({ ok: true, value: { label: 'no', reasoning: 'because', references: [] } });
    expect(parseAgentAnswer('My verdict: {"response": " Yes ", "reason": "x"} as asked')).toMatchObject({
      ok: true,
      value: { label: 'yes' },
    });
  });
  it('accepts a fence without a language and braces inside strings', () => {
    expect(parseAgentAnswer('```\n{"reason": "a } brace and a \\" quote", "response": "no"}\n```')).toEqual({
      ok: true,
      value: { label: 'no', reasoning: 'a } brace and a " quote', references: [] },
    });
  });
  it('takes a lone reference string as a list and drops non-strings', () => {
    expect(parseAgentAnswer('{"reference": "one", "response": "yes"}')).toMatchObject({ value: { references: ['one'], reasoning: '' } });
    expect(parseAgentAnswer('{"reference": ["a", 3, ""], "response": "yes"}')).toMatchObject({ value: { references: ['a'] } });
  });
  it('skips objects without a response and reads a later one', () => {
    expect(parseAgentAnswer('{"note": 1} then {"response": "no"}')).toMatchObject({ ok: true, value: { label: 'no' } });
  });
  it('refuses text without JSON, cut-off JSON and responses other than yes/no', () => {
    expect(parseAgentAnswer('I think yes')).toEqual({ ok: false, reason: 'the answer holds no JSON object' });
    expect(parseAgentAnswer('{"reference": [], "reason": "cut off')).toEqual({ ok: false, reason: 'the answer holds no JSON object' });
    expect(parseAgentAnswer('{"response": "maybe"}')).toEqual({ ok: false, reason: 'the JSON object has no "response" of yes or no' });
    expect(parseAgentAnswer('')).toMatchObject({ ok: false });
  });
});

describe('parseFilterAnswer', () => {
  it('reads {"is_supported": true/false} in its spellings', () => {
    expect(parseFilterAnswer('{"is_supported": true}')).toEqual({ ok: true, value: true });
    expect(parseFilterAnswer('```json\n{"IS_SUPPORTED": "False"}\n```')).toEqual({ ok: true, value: false });
    expect(parseFilterAnswer(' false ')).toEqual({ ok: true, value: false });
    expect(parseFilterAnswer('`true`')).toEqual({ ok: true, value: true });
  });
  it('refuses anything else', () => {
    expect(parseFilterAnswer('{"is_supported": "perhaps"}')).toMatchObject({ ok: false });
    expect(parseFilterAnswer('it is true and false')).toMatchObject({ ok: false });
  });
});

describe('jsonObjectsIn', () => {
  it('finds fenced objects first, then the others, outermost only', () => {
    expect(jsonObjectsIn('{"a": {"b": 1}} ```json\n{"c": 2}\n```')).toEqual([{ c: 2 }, { a: { b: 1 } }, { c: 2 }]);
    expect(jsonObjectsIn('[1, 2] {bad} "{\\"x\\": 1}"')).toEqual([]);
  });
});

it('reaskMessage names why', () => {
  expect(reaskMessage('the answer holds no JSON object')).toMatch(
    /could not be read \(the answer holds no JSON object\).*only the JSON object/,
  );
});

describe('capText and the caps of a parsed answer', () => {
  it('keeps a text within the cap as it is, and cuts a longer one to the cap, saying how long it was', () => {
    expect(capText('short', 10)).toBe('short');
    const cut = capText('x'.repeat(500), 100);
    expect(cut).toHaveLength(100);
    expect(cut).toMatch(/^x+ \[… cut: 500 characters in all\]$/);
  });

  it('caps the reasoning and the references an answer may bring', () => {
    const parsed = parseAgentAnswer(
      JSON.stringify({
        response: 'yes',
        reason: 'r'.repeat(MAX_REASON_CHARS * 3),
        reference: Array.from({ length: 50 }, () => 'q'.repeat(5000)),
      }),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.reasoning).toHaveLength(MAX_REASON_CHARS);
    expect(parsed.value.references).toHaveLength(MAX_REFERENCES);
    expect(parsed.value.references.every((r) => r.length === MAX_REFERENCE_CHARS)).toBe(true);
  });
});
