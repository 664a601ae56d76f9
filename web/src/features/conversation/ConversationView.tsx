import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { EmptyState } from '../../ui/EmptyState';
import { Loading } from '../../ui/Spinner';

export function ConversationView() {
  const { uuid = '' } = useParams();
  const conversation = useQuery({
    queryKey: keys.conversations.detail(uuid),
    queryFn: () => unwrap(api.GET('/api/v1/conversations/{cuuid}', { params: { path: { cuuid: uuid } } })),
  });
  if (conversation.isPending) return <Loading label={t('conversation.loading')} />;
  if (conversation.isError) return <EmptyState title={t('conversation.notFound')} hint={conversation.error.message} />;
  return (
    <article className="conversation" aria-labelledby="conversation-title">
      <h2 id="conversation-title">{conversation.data.subject || t('inbox.noSubject')}</h2>
    </article>
  );
}
