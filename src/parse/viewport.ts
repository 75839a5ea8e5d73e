// The content of `<meta name="viewport">`: "width=device-width, initial-scale=1".

/** Browsers accept `,` and `;` between properties and spaces around `=`; names and keywords are case-insensitive. */
export function parseViewport(content: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const part of content.toLowerCase().split(/[,;]/)) {
    const [name, ...rest] = part.split('=');
    if (name.trim() !== '' && rest.length > 0) properties.set(name.trim(), rest.join('=').trim());
  }
  return properties;
}
