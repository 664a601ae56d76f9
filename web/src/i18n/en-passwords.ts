// Invitations and password reset: the public set-password and forgot-password pages, and the
// administrator's invitations in the agents screen.
export const enPasswords = {
  'password.forgotLink': 'Forgot password?',
  'password.forgot.title': 'Reset your password',
  'password.forgot.intro': 'Enter the email address of your account. We will mail you a link to choose a new password.',
  'password.forgot.email': 'Email',
  'password.forgot.submit': 'Send the link',
  'password.forgot.submitting': 'Sending…',
  'password.forgot.sent': 'If an account exists for {email}, we sent a link to it. It works for 1 hour.',
  'password.forgot.back': 'Back to sign in',
  'password.set.title': 'Choose your password',
  'password.set.intro': 'Choose the password you will sign in with.',
  'password.set.password': 'New password',
  'password.set.confirm': 'Repeat the password',
  'password.set.hint': 'At least 10 characters',
  'password.set.tooShort': 'Use at least 10 characters',
  'password.set.mismatch': 'The two passwords differ',
  'password.set.submit': 'Set password',
  'password.set.submitting': 'Saving…',
  'password.set.noToken': 'This link is incomplete. Open the link from the mail again, or ask for a new one.',
  'password.set.invalid': 'This link is invalid, expired or already used.',
  'password.set.askAgain': 'Ask for a new link',
  'password.set.done': 'Your password is set. Sign in with it.',
  'admin.agents.invitationHint': 'Leave the password empty to mail {email} an invitation to choose one (the link works for 7 days).',
  'admin.agents.invitationHintNoEmail':
    'Leave the password empty to mail the agent an invitation to choose one (the link works for 7 days).',
  'admin.agents.invitationSent': 'Invitation mailed to {email}',
  'admin.agents.invite': 'Send invitation again',
  'admin.agents.inviteNamed': 'Send {name} an invitation again',
  'admin.agents.mailNotConfigured':
    'System mail is not configured (set {missing} on the server): agents cannot be invited or reset their password by mail. Give new agents a password, or use single sign-on.',
} as const;
