// "A colleague is replying": sending a reply while another agent viewing the conversation writes
// one asks first (docs/web.md, "Presence"). Notes go straight out: they do not reach the contact.
import { type ReactNode, useRef, useState } from 'react';
import { t } from '../../i18n/t';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useOtherViewers } from './viewers';

export function useReplyGuard(uuid: string): { send: (isReply: boolean, action: () => void) => void; dialog: ReactNode } {
  const viewers = useOtherViewers(uuid, false);
  const replying = viewers.filter((viewer) => viewer.replying);
  const [open, setOpen] = useState(false);
  const held = useRef<(() => void) | null>(null);
  const names = useRef('');
  const send = (isReply: boolean, action: () => void) => {
    if (!isReply || replying.length === 0) return action();
    held.current = action;
    names.current = replying.map((viewer) => viewer.name).join(', ');
    setOpen(true);
  };
  const dialog = (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      title={t('presence.confirm.title')}
      message={t('presence.confirm.message', { name: names.current, n: names.current.split(', ').length })}
      confirmLabel={t('presence.confirm.send')}
      danger={false}
      onConfirm={async () => held.current?.()}
    />
  );
  return { send, dialog };
}
