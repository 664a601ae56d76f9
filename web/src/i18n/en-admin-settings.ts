// Strings of the administration screens (features/admin): service levels and integrations.
export const enAdminSettings = {
  'admin.hours.title': 'Business hours',
  'admin.hours.hint': 'Weekly opening hours, holidays and their time zone.',
  'admin.hours.one': 'Business hours',
  'admin.sla.title': 'SLA policies',
  'admin.sla.hint': 'Response and resolution targets, with warnings before a breach.',
  'admin.sla.one': 'SLA policy',
  'admin.general.title': 'General settings',
  'admin.general.hint': 'Default business hours and the time zone of reports.',
  'admin.webhooks.title': 'Webhooks',
  'admin.webhooks.hint': 'Signed HTTP calls to your systems when something happens.',
  'admin.sso.title': 'Single sign-on',
  'admin.sso.hint': 'OpenID Connect providers agents may sign in with.',
  'admin.ai.title': 'AI assistant',
  'admin.ai.hint': 'The model that rewrites drafts, and its prompts.',
} as const;
