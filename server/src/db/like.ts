/**
 * The one `like` pattern builder: `%text%` with the pattern characters of the text escaped (PostgreSQL's
 * default escape character is the backslash), so a search for `50%` or `a_b` matches those characters only.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
