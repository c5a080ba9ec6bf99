import { describe, expect, it } from 'vitest';
import { toHtmlQuestionXml } from '../hits/render.js';
import { htmlOfQuestion } from './routes.js';

describe("the task page's HTML", () => {
  it('is the HTMLQuestion page itself, a "]]>" in it included', () => {
    const html = '<!DOCTYPE html><p>a ]]> b</p><form action="https://www.mturk.com/mturk/externalSubmit"></form>';
    expect(htmlOfQuestion(toHtmlQuestionXml(html, 0))).toBe(html);
  });

  it('is not found in anything but an HTMLQuestion', () => {
    expect(htmlOfQuestion('<ExternalQuestion><ExternalURL>https://x.example</ExternalURL></ExternalQuestion>')).toBeUndefined();
  });
});
