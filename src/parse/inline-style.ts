// What an inline `style` attribute says about whether its element is shown. Only `display: none` is
// read: it is how pages hide tracking pixels and closed widgets, and it hides the whole subtree.
// (visibility and opacity leave the element in the layout; classes and stylesheets are not read.)

const DISPLAY = /(?:^|;)\s*display\s*:\s*([^;!]*?)\s*(!\s*important\s*)?(?=;|$)/gi;

/** Whether the declarations `style` hide the element: its last `display` wins, `!important` first. */
export function hidesElement(style: string): boolean {
  // Most style attributes say nothing about display: skip the regular expression for them.
  if (!/display/i.test(style)) return false;
  let value: string | null = null;
  let important = false;
  for (const match of style.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(DISPLAY)) {
    const isImportant = match[2] !== undefined;
    if (important && !isImportant) continue;
    value = match[1].toLowerCase();
    important = isImportant;
  }
  return value === 'none';
}
