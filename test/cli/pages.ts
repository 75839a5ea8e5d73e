// Pages for the CLI tests, each meant to land on one verdict (the tests check that they do).
import { html, type Handler } from '../support/site-server.ts';

/** Answers 500 and is full of problems: graded bad. */
export const badPage: Handler = html(
  `<html><head><meta name="robots" content="noindex"></head><body><img src="a.png"><img src="b.gif">
<center>x</center><font>y</font><a href="javascript:void(0)">click</a>
${'<p style="color:red">1</p>'.repeat(7)} mail me at someone@example.com</body></html>`,
  500,
);

/** A bare page that answers 200: graded decent. */
export const decentPage: Handler = html('<html><body>hi</body></html>');

/** Two titles carrying terminal escapes (colour, window title with BEL): they surface in `title`'s errors. */
export const ESCAPE_TITLES = ['Evil \u001b[31mRED\u001b[0m one', 'Second \u001b]0;pwned\u0007 title'];
export const escapingPage: Handler = html(
  `<!doctype html><html lang="en"><head>${ESCAPE_TITLES.map((title) => `<title>${title}</title>`).join('')}</head>` +
    '<body><h1>Escapes</h1></body></html>',
);
