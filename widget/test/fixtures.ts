// Shapes the chat frame's unit tests share (the server's ChatMessage author of an agent).

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
