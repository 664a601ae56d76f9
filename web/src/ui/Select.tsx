import { Check, ChevronDown } from 'lucide-react';
import { Select as RadixSelect } from 'radix-ui';

export interface SelectOption {
  value: string;
  label: string;
}

interface SelectProps {
  value: string;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  /** The accessible name when no visible label points at it. */
  'aria-label'?: string;
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  size?: 'sm' | 'md';
}

/** A single choice from a list (Radix Select: keyboard, typeahead, screen readers). */
export function Select({ value, onValueChange, options, placeholder, disabled, size = 'md', id, ...aria }: SelectProps) {
  return (
    <RadixSelect.Root value={value} onValueChange={onValueChange} disabled={disabled}>
      <RadixSelect.Trigger id={id} className={`ui-select ui-select--${size}`} aria-label={aria['aria-label']}>
        <RadixSelect.Value placeholder={placeholder} />
        <RadixSelect.Icon className="ui-select__icon" aria-hidden>
          <ChevronDown size={16} aria-hidden />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content className="ui-popover ui-select__content" position="popper" sideOffset={4}>
          <RadixSelect.Viewport>
            {options.map((option) => (
              <RadixSelect.Item key={option.value} value={option.value} className="ui-menu__item">
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                <RadixSelect.ItemIndicator className="ui-menu__check" aria-hidden>
                  <Check size={16} aria-hidden />
                </RadixSelect.ItemIndicator>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
