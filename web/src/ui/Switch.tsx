import { Switch as RadixSwitch } from 'radix-ui';
import { useId } from 'react';
import './kit.css';

interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: string;
  /** Show the label beside the switch (default), or only to assistive technology. */
  labelHidden?: boolean;
  disabled?: boolean;
  hint?: string;
}

/** An on/off control with its label (Radix Switch: a button with role switch). */
export function Switch({ checked, onCheckedChange, label, labelHidden = false, disabled, hint }: SwitchProps) {
  const id = useId();
  return (
    <div className="ui-switch-row">
      <RadixSwitch.Root
        id={id}
        className="ui-switch"
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-label={labelHidden ? label : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
      >
        <RadixSwitch.Thumb className="ui-switch__thumb" />
      </RadixSwitch.Root>
      {labelHidden ? null : (
        <label htmlFor={id} className="ui-switch__label">
          {label}
          {hint ? (
            <span id={`${id}-hint`} className="ui-switch__hint">
              {hint}
            </span>
          ) : null}
        </label>
      )}
    </div>
  );
}
