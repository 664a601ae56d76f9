// The launcher's look (widget/src/launcher-look.ts), shared by the loader and the web app's
// preview: what it makes of the settings (checked, clamped, defaulted), its styles and its name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type LauncherSettings, launcherCss, launcherLabel, launcherLook } from '../src/launcher-look.ts';

const settings = (launcher: Partial<LauncherSettings['launcher']>, primary = '#0f766e'): LauncherSettings => ({
  launcher: { spacing: { side: 20, bottom: 20 }, logo_url: '', position: 'right', color: '', ...launcher },
  colors: { primary },
});

describe('the launcher look', () => {
  const cases: Array<[string, LauncherSettings, ReturnType<typeof launcherLook>]> = [
    [
      'defaults: the primary colour, right, the chat icon',
      settings({}),
      { side: 'right', offset: 20, bottom: 20, fill: '#0f766e', logo: null },
    ],
    [
      'its own colour, left, a logo',
      settings({ color: '#f60', position: 'left', spacing: { side: 0, bottom: 200 }, logo_url: 'https://cdn.example/l.png' }),
      { side: 'left', offset: 0, bottom: 200, fill: '#f60', logo: 'https://cdn.example/l.png' },
    ],
    [
      'hostile values are clamped or dropped',
      settings(
        {
          color: 'red;background:url(x)',
          position: 'top',
          spacing: { side: 9999, bottom: -5 },
          logo_url: 'javascript:alert(1)',
        },
        'blue}',
      ),
      { side: 'right', offset: 200, bottom: 0, fill: '#2563eb', logo: null },
    ],
    [
      'non-numbers count as 0',
      settings({ spacing: { side: Number.NaN, bottom: '12' as unknown as number } }),
      { side: 'right', offset: 0, bottom: 12, fill: '#0f766e', logo: null },
    ],
  ];
  for (const [label, given, expected] of cases) it(label, () => assert.deepEqual(launcherLook(given), expected));

  it('places the button in its corner, fixed on a page or absolute in the preview, the badge opposite', () => {
    const look = launcherLook(settings({ position: 'left', spacing: { side: 24, bottom: 30 }, color: '#ff6600' }));
    const css = launcherCss(look);
    assert.match(css, /\.l\{all:initial;position:fixed;left:24px;bottom:30px;/);
    assert.match(css, /background:#ff6600/);
    assert.match(css, /\.b\{position:absolute;top:-4px;right:-4px;/);
    assert.match(launcherCss(look, 'absolute'), /\.l\{all:initial;position:absolute;left:24px;bottom:30px;/);
  });

  it('names what a click does and the unread count', () => {
    assert.equal(launcherLabel(false, 0), 'Open chat');
    assert.equal(launcherLabel(false, 3), 'Open chat, 3 unread');
    assert.equal(launcherLabel(true, 3), 'Close chat');
  });
});
