import { Check } from 'lucide-react';
import { DropdownMenu as Menu } from 'radix-ui';
import type { ReactNode } from 'react';

export type MenuEntry =
  | {
      kind?: 'item';
      label: string;
      onSelect: () => void;
      disabled?: boolean;
      danger?: boolean;
      checked?: boolean;
      /** The menu stays open after this item is chosen (ticking several checkbox items in a row). */
      keepOpen?: boolean;
      /** Tells apart items that may share a label (two agents of the same name); the label by default. */
      id?: string;
    }
  | { kind: 'separator' }
  | { kind: 'label'; label: string };

interface DropdownMenuProps {
  /** The trigger: a Button (rendered as the Radix trigger through asChild). */
  trigger: ReactNode;
  entries: readonly MenuEntry[];
  align?: 'start' | 'end';
}

export function DropdownMenu({ trigger, entries, align = 'start' }: DropdownMenuProps) {
  return (
    <Menu.Root>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Menu.Portal>
        <Menu.Content className="ui-popover ui-menu" align={align} sideOffset={4}>
          {entries.map((entry, index) => {
            // biome-ignore lint/suspicious/noArrayIndexKey: separators and labels have nothing else to be told apart by
            if (entry.kind === 'separator') return <Menu.Separator key={`s${index}`} className="ui-menu__separator" />;
            if (entry.kind === 'label')
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above
                <Menu.Label key={`l${index}`} className="ui-menu__label">
                  {entry.label}
                </Menu.Label>
              );
            return entry.checked === undefined ? (
              <Menu.Item
                key={entry.id ?? entry.label}
                className={`ui-menu__item${entry.danger ? ' ui-menu__item--danger' : ''}`}
                disabled={entry.disabled}
                onSelect={entry.onSelect}
              >
                {entry.label}
              </Menu.Item>
            ) : (
              <Menu.CheckboxItem
                key={entry.id ?? entry.label}
                className="ui-menu__item"
                checked={entry.checked}
                disabled={entry.disabled}
                onSelect={(event) => {
                  if (entry.keepOpen) event.preventDefault();
                  entry.onSelect();
                }}
              >
                <Menu.ItemIndicator className="ui-menu__check" aria-hidden>
                  <Check size={16} aria-hidden />
                </Menu.ItemIndicator>
                {entry.label}
              </Menu.CheckboxItem>
            );
          })}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
