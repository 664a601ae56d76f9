// Transient notices ("Saved", an error the user should see): toast(…) from anywhere, shown by
// <Toaster/> once at the root (Radix Toast: announced politely, swipe or Escape dismisses), at the
// bottom left (below the top bar on a phone) so that they never cover the composer's Send.
import { X } from 'lucide-react';
import { Toast as RadixToast } from 'radix-ui';
import { useSyncExternalStore } from 'react';
import { t } from '../i18n/t';

interface ToastItem {
  id: number;
  message: string;
  tone: 'info' | 'error';
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

export function toast(message: string, tone: ToastItem['tone'] = 'info'): void {
  items = [...items, { id: nextId++, message, tone }];
  emit();
}

function dismiss(id: number): void {
  items = items.filter((item) => item.id !== id);
  emit();
}

export function Toaster() {
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => items,
  );
  return (
    <RadixToast.Provider duration={4000} swipeDirection="left">
      {current.map((item) => (
        <RadixToast.Root
          key={item.id}
          className={`ui-toast ui-toast--${item.tone}`}
          type={item.tone === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismiss(item.id);
          }}
        >
          <RadixToast.Description>{item.message}</RadixToast.Description>
          <RadixToast.Close className="ui-button ui-button--ghost ui-button--sm ui-button--icon" aria-label={t('common.close')}>
            <X size={16} aria-hidden />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="ui-toast__viewport" />
    </RadixToast.Provider>
  );
}
