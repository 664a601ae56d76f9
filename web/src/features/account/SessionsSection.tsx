// The agent's sessions: where they are signed in, ending one or all the others.
export function SessionsSection() {
  return null;
}
