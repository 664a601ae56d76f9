// The pre-chat form: the inbox's enabled fields (in their order) and the first message, sent
// together to conversations/init. The browser checks required fields and email addresses
// first; the server checks again and names a refused field.
import { useState } from 'preact/hooks';
import type { PrechatField } from './api.ts';
import type { Chat, ChatState, FormValues } from './chat.ts';
import { text } from './strings.ts';

const INPUT_TYPES: Record<string, 'email' | 'tel' | 'number' | 'date' | 'url'> = {
  email: 'email',
  phone: 'tel',
  number: 'number',
  date: 'date',
  link: 'url',
};

const AUTOCOMPLETE: Record<string, string> = { name: 'name', first_name: 'given-name', last_name: 'family-name' };
const NAME_PARTS = new Set(['name', 'first_name', 'last_name']);

/** The form's name field (a default one) is asked as a first and a last name. */
const isName = (field: PrechatField) => field.key === 'name' && field.is_default === true;

/** The two parts of the name field, sent as `first_name` and `last_name`; required means the first. */
function nameParts(field: PrechatField): [PrechatField, PrechatField] {
  return [
    { ...field, key: 'first_name', label: text('firstName') },
    { ...field, key: 'last_name', label: text('lastName'), required: false, placeholder: '' },
  ];
}

/** The fields whose values are sent: the name field's two parts in its place. */
export function askedFields(fields: readonly PrechatField[]): PrechatField[] {
  return fields.flatMap((field) => (isName(field) ? nameParts(field) : [field]));
}

function Field({ field, value, onChange }: { field: PrechatField; value: string | boolean; onChange: (v: string | boolean) => void }) {
  const id = `field-${field.key}`;
  const label = (
    <>
      {field.label}
      {field.required ? <span class="muted"> {text('required')}</span> : null}
    </>
  );
  if (field.type === 'checkbox') {
    return (
      <label class="check" for={id}>
        <input
          id={id}
          type="checkbox"
          checked={value === true}
          required={field.required}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
        {label}
      </label>
    );
  }
  const common = {
    id,
    name: field.key,
    required: field.required,
    placeholder: field.placeholder || undefined,
    value: typeof value === 'string' ? value : '',
    onInput: (e: Event) => onChange((e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {field.type === 'textarea' ? (
        <textarea rows={3} maxLength={1000} {...common} />
      ) : (
        <input
          // Preact's typings tie other attributes to a literal `type`; this one is chosen at run time.
          {...{ type: (INPUT_TYPES[field.type] ?? 'text') as 'text' }}
          maxLength={NAME_PARTS.has(field.key) ? 128 : field.type === 'email' ? 254 : field.type === 'phone' ? 20 : 1000}
          autoComplete={AUTOCOMPLETE[field.key] ?? (field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : undefined)}
          {...common}
        />
      )}
    </div>
  );
}

export function Prechat({ chat, state }: { chat: Chat; state: ChatState }) {
  const fields = chat.prechatFields();
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [message, setMessage] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    const form: FormValues = {};
    for (const field of askedFields(fields)) {
      const value = values[field.key];
      if (value === undefined || value === '') continue;
      form[field.key] = field.type === 'number' ? Number(value) : value;
    }
    await chat.start(message.trim(), form);
  };
  const title = state.settings?.prechat_form.title || text('prechatTitle');
  return (
    <form class="prechat" onSubmit={submit} aria-labelledby="prechat-title">
      <h2 id="prechat-title">{title}</h2>
      {fields.map((field) => {
        const input = (part: PrechatField) => (
          <Field key={part.key} field={part} value={values[part.key] ?? ''} onChange={(v) => setValues({ ...values, [part.key]: v })} />
        );
        if (!isName(field)) return input(field);
        return (
          <fieldset key={field.key} class="name-parts">
            <legend>{field.label}</legend>
            {nameParts(field).map(input)}
          </fieldset>
        );
      })}
      <div class="field">
        <label for="prechat-message">{text('firstMessage')}</label>
        <textarea
          id="prechat-message"
          rows={3}
          required
          maxLength={10000}
          value={message}
          onInput={(e) => setMessage(e.currentTarget.value)}
        />
      </div>
      {state.notice ? (
        <p class="error" role="alert">
          {state.notice}
        </p>
      ) : null}
      <button type="submit" class="primary wide" disabled={state.busy}>
        {state.busy ? text('sending') : text('start')}
      </button>
    </form>
  );
}
