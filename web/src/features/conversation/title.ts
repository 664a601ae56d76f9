// What a conversation is called: its subject, or (a live chat has none) its first message's
// excerpt, which the API answers as `first_message`; "(no subject)" only when it has neither.
import { useEffect } from 'react';
import { t } from '../../i18n/t';

export function conversationTitle(c: { subject: string; first_message?: string | null }): string {
  return c.subject.trim() || c.first_message?.trim() || t('inbox.noSubject');
}

/** The browser tab's title while the calling screen is shown (the app's name after it), restored when it goes. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title === null) return;
    const before = document.title;
    document.title = `${title} · ${t('app.name')}`;
    return () => {
      document.title = before;
    };
  }, [title]);
}
