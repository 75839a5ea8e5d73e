import { describe, expect, it } from 'vitest';
import { documentMode } from './doctype.ts';

describe('documentMode', () => {
  it('gives no-quirks for the HTML5 doctype in any case, and for about:legacy-compat', () => {
    expect(documentMode('!DOCTYPE html')).toBe('no-quirks');
    expect(documentMode('!doctype HTML')).toBe('no-quirks');
    expect(documentMode('!DOCTYPE html SYSTEM "about:legacy-compat"')).toBe('no-quirks');
  });

  it('gives no-quirks for strict HTML 4.01 and XHTML 1.0 doctypes', () => {
    expect(documentMode('!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"')).toBe(
      'no-quirks',
    );
    expect(
      documentMode(
        '!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"',
      ),
    ).toBe('no-quirks');
  });

  it('gives limited-quirks for XHTML 1.0 transitional/frameset and HTML 4.01 transitional with a system id', () => {
    expect(
      documentMode(
        '!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"',
      ),
    ).toBe('limited-quirks');
    expect(documentMode('!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Frameset//EN"')).toBe('limited-quirks');
    expect(
      documentMode('!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd"'),
    ).toBe('limited-quirks');
  });

  it('gives quirks for HTML 4.01 transitional without a system id and for old public ids', () => {
    expect(documentMode('!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"')).toBe('quirks');
    expect(documentMode('!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN" "http://x/y.dtd"')).toBe('quirks');
    expect(documentMode('!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN"')).toBe('quirks');
    expect(documentMode("!DOCTYPE html PUBLIC 'html'")).toBe('quirks');
  });

  it('gives quirks for the IBM system id, another name, no name and malformed identifiers', () => {
    expect(documentMode('!DOCTYPE html SYSTEM "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"')).toBe(
      'quirks',
    );
    expect(documentMode('!DOCTYPE svg')).toBe('quirks');
    expect(documentMode('!DOCTYPE')).toBe('quirks');
    expect(documentMode('!DOCTYPE html PUBLIC -//W3C//DTD HTML 4.01//EN')).toBe('quirks'); // no quotes
    expect(documentMode('!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN')).toBe('quirks'); // never closed
    expect(documentMode('!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" nonsense')).toBe('quirks');
    expect(documentMode('!DOCTYPE html bogus')).toBe('quirks');
  });
});
