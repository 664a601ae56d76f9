import { type ReactNode, useId } from 'react';
import './kit.css';

export interface CheckOption {
  value: string;
  label: ReactNode;
  /** One line under the label, read as the checkbox's description. */
  description?: string;
}

/** Several choices from a short list (permissions, events, teams), as labelled checkboxes in a fieldset. */
export function CheckboxGroup({
  legend,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  options: readonly CheckOption[];
  value: readonly string[];
  onChange: (value: string[]) => void;
  error?: string | null;
}) {
  const selected = new Set(value);
  const id = useId();
  return (
    <fieldset className="check-grid" aria-invalid={error ? true : undefined}>
      <legend>{legend}</legend>
      {options.map((option, index) => (
        <label key={option.value} className="check-row">
          <input
            type="checkbox"
            className="ui-checkbox"
            aria-describedby={option.description ? `${id}-${index}` : undefined}
            checked={selected.has(option.value)}
            onChange={(event) => {
              const next = new Set(selected);
              if (event.target.checked) next.add(option.value);
              else next.delete(option.value);
              onChange(options.map((o) => o.value).filter((v) => next.has(v)));
            }}
          />
          <span className="check-row__text">
            <span>{option.label}</span>
            {option.description ? (
              // Out of the label's name (it is the checkbox's description instead).
              <span id={`${id}-${index}`} className="check-row__description" aria-hidden>
                {option.description}
              </span>
            ) : null}
          </span>
        </label>
      ))}
      {error ? (
        <p className="ui-field__error form-grid__full" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
