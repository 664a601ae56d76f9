// Contact access (docs/api.md, "Permissions and access"): a contact is readable with
// `contacts:read_all`, or when the caller may read one of its conversations (the conversation
// access rule). Like conversations.access.ts, the rule exists twice, as a check of one contact
// given its conversations' facts (the sockets) and as SQL over `users` aliased `u` (the row
// check, the list, search), both built from contactScope() so they cannot drift apart.
//
// It lives in conversations/ because it is built from the conversation access rule, and both
// contact-access/ (the /contacts routes) and starting a conversation with an existing contact
// (conversations.create.ts) apply it.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Principal } from '../auth/credential-cache.ts';
import { contactReadability } from '../contacts/contacts.service.ts';
import type { DB } from '../db/database.ts';
import type { Database } from '../db/types.ts';
import { NotFoundError, PermissionError } from '../errors.ts';
import { type AccessScope, accessScope, canReadConversation, scopeFilter } from './conversations.access.ts';

/** `all`: every contact; otherwise the contacts of the conversations `conversations` may read. */
export type ContactScope = { all: true } | { all: false; conversations: AccessScope };

/** What contacts the caller may read, or null when none. */
export function contactScope(principal: Principal): ContactScope | null {
  if (principal.permissions.has('contacts:read_all')) return { all: true };
  const conversations = accessScope(principal);
  return conversations ? { all: false, conversations } : null;
}

/** The rule on one contact, given the access facts of its conversations. */
export function canReadContact(
  principal: Principal,
  conversations: readonly { assigned_user_id: number | null; assigned_team_id: number | null }[],
): boolean {
  const scope = contactScope(principal);
  if (!scope) return false;
  return scope.all || conversations.some((conversation) => canReadConversation(principal, conversation));
}

type WithU = Database & { u: Database['users'] };

/**
 * The same rule as SQL over a users table aliased `u`. Null when the caller may read no
 * contact (callers answer with an empty result, or a 403, without querying).
 */
export function contactFilter(principal: Principal) {
  const scope = contactScope(principal);
  if (!scope) return null;
  return (eb: ExpressionBuilder<WithU, 'u'>): Expression<SqlBool> =>
    scope.all
      ? sql<SqlBool>`true`
      : eb.exists(
          eb
            .selectFrom('conversations as c')
            .select(sql`1`.as('one'))
            .whereRef('c.contact_id', '=', 'u.id')
            .where(scopeFilter(scope.conversations)),
        );
}

export type ContactFilter = NonNullable<ReturnType<typeof contactFilter>>;

/** The row check: the contact exists (else 404) and the caller may read it (else 403). */
export async function assertContactReadable(db: DB, principal: Principal, id: number): Promise<void> {
  const found = await contactReadability(db, id, contactFilter(principal));
  if (!found) throw new NotFoundError('Contact not found');
  if (!found.readable) throw new PermissionError('Permission denied: you may not access this contact');
}
