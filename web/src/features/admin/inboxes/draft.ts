// An inbox being edited: the record's editable fields, changed through `change(fn)` on a copy, so
// that every tab edits one draft and one Save sends it whole (PUT replaces `config` whole; the
// masked secrets sent back keep their stored values).
import { useCallback, useState } from 'react';
import type { Schemas } from '../../../api/client';
import type { FormErrors } from '../../../ui/formErrors';

export type Inbox = Schemas['Inbox'];
export type EmailConfig = Schemas['EmailInboxConfig'];
export type LivechatConfig = Schemas['LivechatInboxConfig'];
export type LivechatPermissions = Schemas['LivechatPermissions'];

interface Common {
  name: string;
  enabled: boolean;
  csat_enabled: boolean;
  default_team_id: number | null;
  assign_on_first_reply: boolean;
  from: string;
}
export type Draft = (Common & { channel: 'email'; config: EmailConfig }) | (Common & { channel: 'livechat'; config: LivechatConfig });

export function draftOf(inbox: Inbox): Draft {
  const common = {
    name: inbox.name,
    enabled: inbox.enabled,
    csat_enabled: inbox.csat_enabled,
    default_team_id: inbox.default_team_id,
    assign_on_first_reply: inbox.assign_on_first_reply,
    from: inbox.from ?? '',
  };
  return inbox.channel === 'email'
    ? { ...common, channel: 'email', config: structuredClone(inbox.config) }
    : { ...common, channel: 'livechat', config: structuredClone(inbox.config) };
}

export function useDraft(initial: Draft) {
  const [draft, setDraft] = useState(initial);
  const [dirty, setDirty] = useState(false);
  const change = useCallback((edit: (draft: Draft) => void) => {
    setDraft((current) => {
      const next = structuredClone(current);
      edit(next);
      return next;
    });
    setDirty(true);
  }, []);
  const reset = useCallback((next: Draft) => {
    setDraft(next);
    setDirty(false);
  }, []);
  return { draft, dirty, change, reset };
}

/** What a tab of the inbox editor is given. */
export interface TabProps<C> {
  config: C;
  /** Edits the config on a copy of the draft. */
  edit: (fn: (config: C) => void) => void;
  errors: FormErrors;
}

export const DEFAULT_PERMISSIONS: LivechatPermissions = {
  allow_start_conversation: true,
  prevent_multiple_conversations: false,
  prevent_reply_to_closed_conversation: false,
  start_conversation_button_text: 'Start a conversation',
};

/**
 * A new live chat's settings: the API's defaults (the OpenAPI document's, LivechatInboxConfig), with
 * the inbox's name as the brand. Written out because the generated types ask for every field.
 */
export function newLivechatConfig(brand: string): LivechatConfig {
  const field = (key: string, type: 'text' | 'email' | 'phone', label: string, required: boolean, enabled: boolean, order: number) => ({
    key,
    type,
    label,
    placeholder: '',
    required,
    enabled,
    order,
    is_default: true,
    custom_attribute_id: null,
  });
  return {
    brand_name: brand || 'Support',
    website_url: '',
    logo_url: '',
    dark_mode: false,
    show_powered_by: true,
    language: 'en',
    colors: { primary: '#2563eb' },
    launcher: { position: 'right', spacing: { side: 20, bottom: 20 }, logo_url: '', color: '' },
    greeting_message: 'Hi there! How can we help?',
    introduction_message: '',
    chat_introduction: '',
    chat_reply_expectation_message: '',
    direct_to_conversation: false,
    notice_banner: { enabled: false, text: '' },
    show_office_hours_in_chat: false,
    show_office_hours_after_assignment: false,
    away_message: "We're away right now. Leave us a message and we'll answer as soon as we're back.",
    users: { ...DEFAULT_PERMISSIONS },
    visitors: { ...DEFAULT_PERMISSIONS },
    prechat_form: {
      enabled: false,
      title: '',
      fields: [
        field('name', 'text', 'Name', true, true, 1),
        field('email', 'email', 'Email', true, true, 2),
        field('phone', 'phone', 'Phone', false, false, 3),
      ],
    },
    file_upload: {
      enabled: true,
      max_size_mb: 10,
      allowed_extensions: [
        'jpg',
        'jpeg',
        'png',
        'gif',
        'webp',
        'pdf',
        'txt',
        'csv',
        'log',
        'doc',
        'docx',
        'xls',
        'xlsx',
        'ppt',
        'pptx',
        'zip',
        'mp3',
        'mp4',
        'mov',
      ],
    },
    trusted_domains: [],
    blocked_ips: [],
    session_duration: '30d',
    business_hours_id: null,
  };
}
