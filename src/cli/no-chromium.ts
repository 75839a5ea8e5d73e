// What the command line says when a page is to be loaded in a browser and there is no Chromium.
// `asked` names what asked for it in the words of the interface: analyze's options (`--render`) or
// the arguments of `pagegrade mcp`'s analyze_url (`render`).
export function noChromiumSentence(asked: readonly string[], chromiumPath: string): string {
  const verb = asked.length > 1 ? 'need' : 'needs';
  return `${asked.join(' and ')} ${verb} Chromium, and there is none at ${chromiumPath} (set PAGEGRADE_CHROMIUM_PATH, or apt-get install chromium).`;
}
