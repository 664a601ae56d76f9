// A value to copy (a secret shown once, an embed snippet): read-only, selectable, with a copy button.
import { useState } from 'react';
import { t } from '../i18n/t';
import { Button } from './Button';
import './kit.css';

export function CopyField({ value, label, multiline = false }: { value: string; label: string; multiline?: boolean }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text stays selectable.
      setCopied(false);
    }
  };
  return (
    <div className="ui-copy">
      {multiline ? (
        <textarea
          className="ui-input ui-copy__value ui-copy__value--multi"
          readOnly
          value={value}
          aria-label={label}
          rows={3}
          onFocus={(e) => e.target.select()}
        />
      ) : (
        <input className="ui-input ui-copy__value" readOnly value={value} aria-label={label} onFocus={(e) => e.target.select()} />
      )}
      <Button onClick={copy} aria-label={t('admin.copyLabel', { label })}>
        {copied ? t('admin.copied') : t('admin.copy')}
      </Button>
    </div>
  );
}
