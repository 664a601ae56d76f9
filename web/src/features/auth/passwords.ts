// Invitations and password reset (docs/api.md, "Invitations and password reset"): asking for a
// reset link, setting a password with a mailed link, and whether system mail is configured.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

export const systemMailKey = ['system-mail', 'status'] as const;

/** Whether the server can mail agents (SMTP_URL and MAIL_FROM are set), and what is missing. */
export function useSystemMailStatus() {
  return useQuery({ queryKey: systemMailKey, queryFn: () => unwrap(api.GET('/api/v1/system-mail/status')), staleTime: 5 * 60_000 });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: (email: string) => unwrap(api.POST('/api/v1/auth/password-reset', { body: { email } })) });
}

export function useSetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) => unwrap(api.POST('/api/v1/auth/password-reset/confirm', { body })),
  });
}
