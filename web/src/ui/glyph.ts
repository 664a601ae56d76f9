// Whether this browser has a glyph for a short text such as the emoji a team chose. Without a
// colour-emoji font (Debian's Chromium has none unless fonts-noto-color-emoji is installed) an
// emoji comes out as the missing-glyph box. Each character is drawn on a canvas and compared with
// a character no font has (a private-use one of plane 16), which is drawn as that box. A browser
// that draws each missing character differently (Firefox's hex boxes) is taken at its word.
const NO_GLYPH = '\u{10FFFD}';
/** Joiners, variation selectors and combining marks have no glyph of their own. */
const NOT_DRAWN = /[\p{Cf}\p{Mn}\p{Me}]/u;
const SIZE = 32;

const known = new Map<string, boolean>();
let context: CanvasRenderingContext2D | null | undefined;

function pixels(ctx: CanvasRenderingContext2D, text: string): Uint8ClampedArray {
  ctx.clearRect(0, 0, SIZE, SIZE);
  ctx.fillText(text, 0, 0);
  return ctx.getImageData(0, 0, SIZE, SIZE).data;
}

function same(a: Uint8ClampedArray, b: Uint8ClampedArray): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function hasGlyphs(text: string): boolean {
  const memo = known.get(text);
  if (memo !== undefined) return memo;
  if (context === undefined) {
    context = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (context) {
      context.canvas.width = SIZE;
      context.canvas.height = SIZE;
      context.font = `${SIZE * 0.75}px ${getComputedStyle(document.body).fontFamily}`;
      context.textBaseline = 'top';
    }
  }
  const ctx = context;
  if (!ctx) return true;
  const box = pixels(ctx, NO_GLYPH);
  const drawable = [...text].filter((c) => !NOT_DRAWN.test(c)).every((c) => !same(pixels(ctx, c), box));
  known.set(text, drawable);
  return drawable;
}

/** The emoji a team chose, or '' when it has none or this browser would draw it as a box. */
export function teamEmoji(team: { emoji: string }): string {
  return team.emoji && hasGlyphs(team.emoji) ? team.emoji : '';
}
