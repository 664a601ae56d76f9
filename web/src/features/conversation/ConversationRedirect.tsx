import { Navigate, useParams } from 'react-router';

export function ConversationRedirect() {
  const { uuid } = useParams();
  return <Navigate to={`/inbox/mine/c/${uuid ?? ''}`} replace />;
}
