// Shapes the widget's tests share: the server's ChatMessage author of an agent, and a pre-chat form.

/** An agent as a ChatMessage's author. */
export const agentAuthor = {
  id: 3,
  first_name: 'Grace',
  last_name: 'Hopper',
  email: null,
  avatar_url: null,
  availability_status: 'available',
  type: 'agent',
  last_active_at: null,
};

/** A pre-chat form asking for a name and an email (both required) and an optional order number. */
export const PRECHAT_FORM = {
  enabled: true,
  title: 'Tell us who you are',
  fields: [
    { key: 'name', type: 'text', label: 'Name', required: true, enabled: true, order: 1, is_default: true },
    { key: 'email', type: 'email', label: 'Email', required: true, enabled: true, order: 2, is_default: true },
    { key: 'order_number', type: 'text', label: 'Order number', required: false, enabled: true, order: 3 },
  ],
};
