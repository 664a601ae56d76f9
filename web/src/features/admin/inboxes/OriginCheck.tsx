// "Check a site" on the live chat's Install tab: whether a page at an address may show the chat,
// answered by the server with the rule the widget applies (POST /inboxes/{id}/widget-origin-check),
// against the allowed sites as edited on the Security tab, saved or not.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../../api/client';
import { t } from '../../../i18n/t';
import { Badge } from '../../../ui/Badge';
import { Button } from '../../../ui/Button';
import { Field } from '../../../ui/Field';
import { Input } from '../../../ui/Input';
import { ErrorBanner } from '../../../ui/Page';

export function OriginCheck({ inboxId, trusted }: { inboxId: number; trusted: string[] }) {
  const [url, setUrl] = useState('');
  const check = useMutation({
    mutationFn: (address: string) =>
      unwrap(
        api.POST('/api/v1/inboxes/{id}/widget-origin-check', {
          params: { path: { id: inboxId } },
          body: { url: address, trusted_domains: trusted },
        }),
      ),
  });
  const submit = () => {
    if (url.trim() !== '') check.mutate(url.trim());
  };
  const answer = check.data && !check.isPending ? check.data : null;
  return (
    // Not a <form>: the inbox page is one already (Enter there would save the inbox).
    <div className="form-stack">
      <Field label={t('admin.inboxes.checkSite')} hint={t('admin.inboxes.checkSiteHint')}>
        <Input
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            submit();
          }}
          placeholder="https://shop.example.com"
          maxLength={2048}
        />
      </Field>
      <div>
        <Button onClick={submit} loading={check.isPending} disabled={check.isPending || url.trim() === ''}>
          {t('admin.inboxes.checkSiteButton')}
        </Button>
      </div>
      <ErrorBanner message={check.error?.message} />
      <p aria-live="polite">
        {answer ? (
          <>
            <Badge tone={answer.allowed ? 'success' : 'danger'}>
              {t(answer.allowed ? 'admin.inboxes.siteAllowedBadge' : 'admin.inboxes.siteRefusedBadge')}
            </Badge>{' '}
            {answer.allowed
              ? t(answer.any_site ? 'admin.inboxes.siteAllowedAny' : 'admin.inboxes.siteAllowed', { origin: answer.origin })
              : t('admin.inboxes.siteRefused', { origin: answer.origin })}
          </>
        ) : null}
      </p>
    </div>
  );
}
