import { describe, expect, it } from 'vitest';
import { checkXml, createXmlParser } from './xml-reader.js';

const parse = (xml: string) => createXmlParser({ ignoreAttributes: true, trimValues: true }).parse(xml) as Record<string, unknown>;

describe('the one XML reader', () => {
  it("decodes exactly XML's entities, in one pass, and leaves HTML's named ones as written", () => {
    expect(parse('<a>&lt;b&gt; &amp;lt; caf&#233; &#x4E2D; &nbsp;</a>')).toEqual({ a: '<b> &lt; café 中 &nbsp;' });
    expect(parse('<a>&#0;</a>')).toEqual({ a: '\uFFFD' });
  });

  it('refuses DOCTYPE and ENTITY declarations, but not inside CDATA or comments', () => {
    expect(checkXml('<!DOCTYPE x [<!ENTITY a "b">]><x/>')).toEqual({ kind: 'declaration' });
    expect(checkXml('<x><!ENTITY a "b"></x>')).toEqual({ kind: 'declaration' });
    expect(checkXml('<x><![CDATA[<!DOCTYPE html><p>page</p>]]></x>')).toBeNull();
    expect(checkXml('<x><!-- <!DOCTYPE html> --></x>')).toBeNull();
  });

  it('names the line and column of a malformation', () => {
    expect(checkXml('<x>\n<y></x>')).toMatchObject({ kind: 'malformed', line: 2 });
  });
});
