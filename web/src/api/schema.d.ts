// Generated from Parley's OpenAPI document by server/scripts/openapi-client.ts
// (npm run openapi). Do not edit: change the route schemas and generate again.
export interface paths {
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with email and password
         * @description Sets an HttpOnly session cookie `parley_session` and a readable `csrf_token` cookie, and answers the agent. Cookie-authenticated POST/PUT/PATCH/DELETE requests must send `X-CSRF-Token` equal to that cookie. Failed logins are limited per account and client address, and per account (docs/api.md, "Authentication").
         *
         *     With two-factor sign-in on, no session yet: the answer is `{"mfa_required": true, "challenge"}`, and POST /api/v1/auth/mfa with the challenge and a code signs in. `mfa_setup_required: true` in the agent: a role requires two-factor sign-in, not set up yet, and the session may only set it up (docs/api.md, "Two-factor sign-in").
         *
         *     Public: no credentials.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/mfa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Second step of a password sign-in: a two-factor code
         * @description Answers like POST /auth/login when it opens the session. `code`: the current code of the authenticator app (each is accepted once) or an unused recovery code (each works once). A challenge lives 5 minutes and dies at the fifth wrong code (401: sign in again); wrong codes count on the login limits of the account, like wrong passwords.
         *
         *     Public: no credentials.
         */
        post: operations["createMfa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the current session
         * @description Any authenticated agent.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List my sessions
         * @description The caller's live sessions (where they are signed in), most recently seen first, at most 100. `current` marks the session of this request; with API credentials none is current.
         *
         *     Any authenticated agent.
         */
        get: operations["listAgentMeSessions"];
        put?: never;
        post?: never;
        /**
         * End my other sessions
         * @description Ends every session of the caller but the current one, at once on every server instance. Called with API credentials (no current session), it ends all of them; the credentials themselves keep working.
         *
         *     Any authenticated agent.
         */
        delete: operations["deleteAgentMeSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of my sessions
         * @description Its next request, and its open agent sockets, are refused at once on every server instance. Ending the current session signs out (its cookies are cleared). An unknown id, or another agent’s session, is a 404.
         *
         *     Any authenticated agent.
         */
        delete: operations["deleteAgentMeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the first admin is still to be created
         * @description Public: no credentials.
         */
        get: operations["getSetup"];
        put?: never;
        /**
         * Create the first admin with the setup token
         * @description Only while no agent exists (else 409). `token` is the one-time setup token the server printed in its log when it started without an agent (valid 24 hours; a wrong or expired one is a 403). Creates an agent with the Admin role, signs it in like `POST /auth/login` (session and CSRF cookies) and burns every setup token. Rate limited per client address like the login.
         *
         *     Public: no credentials.
         */
        post: operations["createSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List agents (paged)
         * @description Ordered by `order_by` (created_at, updated_at, first_name, email; default created_at) and `order` (asc default), id as tiebreaker.
         *
         *     Requires permission `users:manage`.
         */
        get: operations["listAgents"];
        put?: never;
        /**
         * Create an agent
         * @description Without `password`, an enabled agent is mailed an invitation to choose one (a link valid 7 days; see `POST /agents/{id}/invite`) when system mail is configured; otherwise it is created without a password (single sign-on, API credentials, or an invitation later).
         *
         *     Requires permission `users:manage`.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/compact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every agent, compact (for pickers)
         * @description Any authenticated agent.
         */
        get: operations["listAgentsCompact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The calling agent
         * @description `mfa_setup_required`: this session is held at enrolment until two-factor sign-in is set up (docs/api.md, "Two-factor sign-in").
         *
         *     Any authenticated agent.
         */
        get: operations["getAgentMe"];
        /**
         * Update my profile
         * @description Changing the password needs `current_password` (unless the agent never had one) and ends other sessions.
         *
         *     Any authenticated agent.
         */
        put: operations["updateAgentMe"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/availability": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set my availability
         * @description `source` = `user` (default) always applies. `source` = `idle` may request only `away` or `available` and applies only when the agent is available, or away because idle set it: it never overrides a manual away, busy or offline (the call then returns the agent unchanged).
         *
         *     Any authenticated agent.
         */
        put: operations["updateAgentMeAvailability"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/api-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate my API credentials
         * @description Returns a new key and secret for the caller; the secret is shown only here. Replaces the current pair, which is refused (401) from the next request on. Works with a session cookie (with `X-CSRF-Token`) or with the current API credentials.
         *
         *     Any authenticated agent.
         */
        post: operations["createAgentMeApiKey"];
        /**
         * Revoke my API credentials
         * @description The pair is refused (401) from the next request on, on every server instance. Sessions are not affected.
         *
         *     Any authenticated agent.
         */
        delete: operations["deleteAgentMeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an agent
         * @description Requires permission `users:manage`.
         */
        get: operations["getAgent"];
        /**
         * Update an agent (partial: omitted fields keep their value)
         * @description Requires permission `users:manage`.
         */
        put: operations["updateAgent"];
        post?: never;
        /**
         * Delete an agent (soft: history stays)
         * @description Requires permission `users:manage`.
         */
        delete: operations["deleteAgent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{id}/api-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate API credentials
         * @description Returns the key and the secret; the secret is shown only here. Generating again replaces the pair.
         *
         *     Requires permission `users:manage`.
         */
        post: operations["createAgentApiKey"];
        /**
         * Revoke API credentials
         * @description Requires permission `users:manage`.
         */
        delete: operations["deleteAgentApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a password reset link
         * @description Always answers 200 `true`, whatever the address: whether an account exists is never told. An enabled agent with this address is mailed a link to `{BASE_URL}/set-password?token=…`, valid 1 hour (at most 3 such mails per agent and hour). 422 for every address when system mail (SMTP_URL, MAIL_FROM) is not configured. Limited per client address (LOGIN_RATE_LIMIT_PER_MINUTE).
         *
         *     Public: no credentials.
         */
        post: operations["createPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a password with an invitation or reset link
         * @description Takes the `token` of an invitation or password-reset link. Sets the password, ends every session of the agent and burns the link (and the agent's other links). A used, expired or unknown token, or one of a disabled agent or mailed to an address the agent no longer has, answers 400. Then sign in with `POST /auth/login`.
         *
         *     Public: no credentials.
         */
        post: operations["createPasswordResetConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{id}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail the agent a new invitation
         * @description Mails a link to `{BASE_URL}/set-password?token=…`, valid 7 days; the agent's older invitation links stop working. 422 when system mail (SMTP_URL, MAIL_FROM) is not configured, the agent is disabled or has set a password already (it uses password reset); 403 for an agent holding a permission the caller does not; 404 for a deleted agent or a contact.
         *
         *     Requires permission `users:manage`.
         */
        post: operations["createAgentInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/system-mail/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether system mail (invitations, password resets) is configured
         * @description Any signed-in agent may ask. Unconfigured, invitations and password resets answer 422 naming the variables.
         *
         *     Any authenticated agent.
         */
        get: operations["getSystemMailStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/2fa/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start setting up two-factor sign-in
         * @description A new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s), pending until POST /agents/me/2fa/enable confirms it with a code; calling again replaces the pending secret. The secret is stored encrypted and shown only here. 422 when two-factor sign-in is already on.
         *
         *     Any authenticated agent.
         */
        post: operations["createAgentMe2faSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/2fa/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn two-factor sign-in on
         * @description Confirms the pending secret with its current code (400 when wrong). Answers 10 recovery codes, each good for one sign-in without the app, shown only here. 422 without a pending secret or when already on.
         *
         *     Any authenticated agent.
         */
        post: operations["createAgentMe2faEnable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/2fa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn two-factor sign-in off
         * @description `password`: the current password (not needed by an agent that has none, signing in only by single sign-on); `code`: a code of the app or an unused recovery code. 400 when either is wrong, 422 when two-factor sign-in is off. Wrong attempts count on the login limits of the account (429).
         *
         *     Any authenticated agent.
         */
        post: operations["createAgentMe2faDisable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{id}/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Reset an agent's two-factor sign-in
         * @description Turns it off (its secret and recovery codes are forgotten): the agent signs in with its password alone and may set it up again. Needs every permission the agent holds (403 otherwise), like setting its password; 422 for the caller itself (it uses POST /agents/me/2fa/disable). Answers the agent.
         *
         *     Requires permission `users:manage`.
         */
        delete: operations["deleteAgent2fa"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The permission catalogue
         * @description Any authenticated agent.
         */
        get: operations["listPermissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List roles
         * @description Requires permission `roles:manage`.
         */
        get: operations["listRoles"];
        put?: never;
        /**
         * Create a role
         * @description Requires permission `roles:manage`.
         */
        post: operations["createRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/roles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a role
         * @description Requires permission `roles:manage`.
         */
        get: operations["getRole"];
        /**
         * Update a role (partial)
         * @description Requires permission `roles:manage`.
         */
        put: operations["updateRole"];
        post?: never;
        /**
         * Delete a custom role
         * @description Requires permission `roles:manage`.
         */
        delete: operations["deleteRole"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List teams
         * @description Any authenticated agent.
         */
        get: operations["listTeams"];
        put?: never;
        /**
         * Create a team
         * @description Requires permission `teams:manage`.
         */
        post: operations["createTeam"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/compact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List teams (id, name, emoji) for any agent
         * @description Any authenticated agent.
         */
        get: operations["listTeamsCompact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a team
         * @description Any authenticated agent.
         */
        get: operations["getTeam"];
        /**
         * Update a team (partial)
         * @description Requires permission `teams:manage`.
         */
        put: operations["updateTeam"];
        post?: never;
        /**
         * Delete a team
         * @description Requires permission `teams:manage`.
         */
        delete: operations["deleteTeam"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List team members
         * @description Any authenticated agent.
         */
        get: operations["listTeamMembers"];
        /**
         * Replace the member list
         * @description Requires permission `teams:manage`.
         */
        put: operations["updateTeamMembers"];
        /**
         * Add a member
         * @description Requires permission `teams:manage`.
         */
        post: operations["createTeamMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @description Requires permission `teams:manage`.
         */
        delete: operations["deleteTeamMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tags, by name
         * @description Any authenticated agent.
         */
        get: operations["listTags"];
        put?: never;
        /**
         * Create a tag
         * @description Requires permission `tags:manage`.
         */
        post: operations["createTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tags/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Rename a tag
         * @description Requires permission `tags:manage`.
         */
        put: operations["updateTag"];
        post?: never;
        /**
         * Delete a tag (removes it from conversations)
         * @description Requires permission `tags:manage`.
         */
        delete: operations["deleteTag"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/statuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversation statuses
         * @description Any authenticated agent.
         */
        get: operations["listStatuses"];
        put?: never;
        /**
         * Create a status
         * @description Requires permission `status:manage`.
         */
        post: operations["createStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/statuses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update a status (partial)
         * @description Requires permission `status:manage`.
         */
        put: operations["updateStatus"];
        post?: never;
        /**
         * Delete a status
         * @description Requires permission `status:manage`.
         */
        delete: operations["deleteStatus"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/priorities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List priorities (read-only)
         * @description Any authenticated agent.
         */
        get: operations["listPriorities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/business-hours": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List business hours
         * @description Any authenticated agent.
         */
        get: operations["listBusinessHours"];
        put?: never;
        /**
         * Create business hours
         * @description Requires permission `business_hours:manage`.
         */
        post: operations["createBusinessHours"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/business-hours/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get business hours
         * @description Any authenticated agent.
         */
        get: operations["getBusinessHours"];
        /**
         * Update business hours (partial; hours and holidays are replaced whole)
         * @description Requires permission `business_hours:manage`.
         */
        put: operations["updateBusinessHours"];
        post?: never;
        /**
         * Delete business hours (422 while a team or the general settings use them)
         * @description Requires permission `business_hours:manage`.
         */
        delete: operations["deleteBusinessHours"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/general": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the general settings
         * @description Requires permission `general_settings:manage`.
         */
        get: operations["getSettingsGeneral"];
        /**
         * Update the general settings (partial)
         * @description Requires permission `general_settings:manage`.
         */
        put: operations["updateSettingsGeneral"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sla": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SLA policies
         * @description Any authenticated agent.
         */
        get: operations["listSla"];
        put?: never;
        /**
         * Create an SLA policy
         * @description Requires permission `sla:manage`.
         */
        post: operations["createSla"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sla/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an SLA policy
         * @description Any authenticated agent.
         */
        get: operations["getSla"];
        /**
         * Update an SLA policy (partial; conversations it was applied to keep the targets they got)
         * @description Requires permission `sla:manage`.
         */
        put: operations["updateSla"];
        post?: never;
        /**
         * Delete an SLA policy (422 while a team uses it; conversations keep their applied SLAs)
         * @description Requires permission `sla:manage`.
         */
        delete: operations["deleteSla"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contacts and visitors (paged)
         * @description `q` matches the name, email or phone number (case-insensitive substring). Ordered by `order_by` (created_at default, updated_at, first_name (case-insensitive), email) and `order` (desc default), id as tiebreaker.
         *
         *     Requires permission `contacts:read_all`.
         */
        get: operations["listContacts"];
        put?: never;
        /**
         * Create a contact
         * @description Records a `contact.created` event. Giving it an `external_user_id` needs `contacts:write_identity` too (403).
         *
         *     Requires permission `contacts:write`.
         */
        post: operations["createContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a contact
         * @description Requires permission `contacts:read`; the service then applies the contact access rule: `contacts:read_all`, or a conversation of the contact the caller may read; an unknown contact is a 404, one the caller may not read a 403.
         */
        get: operations["getContact"];
        /**
         * Update a contact (partial: omitted fields keep their value)
         * @description Requires permission `contacts:write`; the service then applies the contact access rule (unknown → 404, not readable → 403); changing the email, or giving the contact its first `external_user_id`, needs `contacts:write_identity` (403); a set `external_user_id` belongs to the widget's identity token and cannot be changed (422).
         */
        put: operations["updateContact"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts/{id}/block": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Block or unblock a contact
         * @description `enabled` false blocks the contact, true unblocks it. Returns the contact.
         *
         *     Requires permission `contacts:block`; the service then applies the contact access rule: `contacts:read_all`, or a conversation of the contact the caller may read; an unknown contact is a 404, one the caller may not read a 403.
         */
        put: operations["blockContact"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A contact's notes, newest first
         * @description At most the newest 1000 notes.
         *
         *     Requires permission `contact_notes:read`; the service then applies the contact access rule: `contacts:read_all`, or a conversation of the contact the caller may read; an unknown contact is a 404, one the caller may not read a 403.
         */
        get: operations["listContactNotes"];
        put?: never;
        /**
         * Add a note to a contact
         * @description Requires permission `contact_notes:write`; the service then applies the contact access rule: `contacts:read_all`, or a conversation of the contact the caller may read; an unknown contact is a 404, one the caller may not read a 403.
         */
        post: operations["createContactNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts/{id}/notes/{note_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a note
         * @description The author may delete their own note with `contact_notes:write`; deleting another agent's note requires `contact_notes:delete`.
         *
         *     Any authenticated agent at the route level; the service then applies the contact access rule (unknown → 404, not readable → 403), then note authorship: the author deletes their own note with `contact_notes:write`; another agent's note needs `contact_notes:delete`.
         */
        delete: operations["deleteContactNote"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inboxes (secrets masked)
         * @description Requires permission `inboxes:manage`.
         */
        get: operations["listInboxes"];
        put?: never;
        /**
         * Create an inbox
         * @description Answers 200 (as the spec says). Absent live-chat settings take their defaults; the live-chat `secret` is generated when absent, and this answer is the only one that shows it (masked everywhere else; `POST /inboxes/{id}/secret/rotate` makes a new one).
         *
         *     Requires permission `inboxes:manage`.
         */
        post: operations["createInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/compact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inboxes (id, uuid, name, channel, enabled) for any agent
         * @description Any authenticated agent.
         */
        get: operations["listInboxesCompact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an inbox (secrets masked)
         * @description Requires permission `inboxes:manage`.
         */
        get: operations["getInbox"];
        /**
         * Update an inbox (partial; `config` replaces the whole config)
         * @description Requires permission `inboxes:manage`.
         */
        put: operations["updateInbox"];
        post?: never;
        /**
         * Delete an inbox (soft: its conversations stay readable)
         * @description Requires permission `inboxes:manage`.
         */
        delete: operations["deleteInbox"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/toggle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Enable or disable an inbox
         * @description Requires permission `inboxes:manage`.
         */
        put: operations["toggleInbox"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the JWT secret of a live-chat inbox
         * @description Answers the new secret, once (it is masked everywhere else). Identity tokens signed with the old secret are refused from now on. Widget sessions already issued keep working, unless `end_sessions` is true: then every widget session of the inbox ends (their bearer tokens get 401, their sockets are closed; visitors and contacts start anew) and `sessions_ended` counts them. The body may be left out. Not a live-chat inbox → 422.
         *
         *     Requires permission `inboxes:manage`.
         */
        post: operations["rotateInboxSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/email/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The state of an email inbox's IMAP reader
         * @description Not an email inbox → 404.
         *
         *     Requires permission `inboxes:manage`.
         */
        get: operations["getInboxEmailStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/email/skipped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The mails an email inbox passed over (too large, unreadable), newest first, paged
         * @description Kept 30 days. Not an email inbox → 404.
         *
         *     Requires permission `inboxes:manage`.
         */
        get: operations["listInboxEmailSkipped"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/email/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test an email inbox's IMAP and SMTP settings, saved or not
         * @description IMAP: connect, log in, open the mailbox read-only, log out. SMTP: connect, TLS, AUTH, quit; no mail is sent. Each server gets at most 15 s (less when EMAIL_TIMEOUT_SECONDS is lower). A failed test is a 200 with `ok: false`; settings that are invalid, or a password that must be sent again, are a 400. Not an email inbox → 422. 10 tests a minute per agent.
         *
         *     Requires permission `inboxes:manage`.
         */
        post: operations["testInboxEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload files to attach to a message
         * @description multipart/form-data with one or more file parts named `files` (at most 20, each at most 25 MiB, set by UPLOAD_MAX_BYTES). Answers the stored files as unattached attachments; send their `uuid`s as `attachments` when posting a message (uploads never attached are removed after a day). Refusals store nothing: not multipart → 415; no file, an empty file, a file part under another name, too many files → 400; a file over the limit → 413. File names are reduced to their last path segment without control characters, at most 255 characters. `url` is a signed link that works without credentials until it expires.
         *
         *     Requires permission `messages:write`.
         */
        post: operations["uploadMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a file through its signed URL
         * @description Public, but only with the `exp` and `sig` of a signed URL (the `url` of an attachment; valid 1 hour by default, MEDIA_URL_TTL_SECONDS). A missing, malformed, tampered or expired signature → 403; an unknown file → 404. Answers the bytes, not a JSON envelope: PNG, JPEG, GIF and WebP images (recognised by their content) inline as their image type, everything else as an `application/octet-stream` attachment, with `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox` and `Cache-Control: private` for at most the link’s remaining lifetime. HEAD answers the same headers without the body.
         *
         *     Public: no credentials.
         */
        get: operations["getMedia"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every conversation (paged)
         * @description `page` (default 1) and `page_size` (default 30, clamped to 1..100). Filters (repeat a parameter for several values): `status`, `priority`, `tag` (names, case-insensitive; unknown → 400), `inbox_id`, `team_id`, `assignee_id`, `contact_id`. Order: `order_by` = last_message_at (default) | created_at | updated_at | waiting_since | next_sla_deadline_at (nulls last in both directions), `order` = desc (default) | asc; id breaks ties.
         *
         *     Requires permission `conversations:read_all`.
         */
        get: operations["listConversationsAll"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/assigned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversations assigned to the caller (paged)
         * @description `page` (default 1) and `page_size` (default 30, clamped to 1..100). Filters (repeat a parameter for several values): `status`, `priority`, `tag` (names, case-insensitive; unknown → 400), `inbox_id`, `team_id`, `assignee_id`, `contact_id`. Order: `order_by` = last_message_at (default) | created_at | updated_at | waiting_since | next_sla_deadline_at (nulls last in both directions), `order` = desc (default) | asc; id breaks ties.
         *
         *     Requires permission `conversations:read_assigned`.
         */
        get: operations["listConversationsAssigned"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/unassigned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversations with no agent assigned (paged)
         * @description `page` (default 1) and `page_size` (default 30, clamped to 1..100). Filters (repeat a parameter for several values): `status`, `priority`, `tag` (names, case-insensitive; unknown → 400), `inbox_id`, `team_id`, `assignee_id`, `contact_id`. Order: `order_by` = last_message_at (default) | created_at | updated_at | waiting_since | next_sla_deadline_at (nulls last in both directions), `order` = desc (default) | asc; id breaks ties.
         *
         *     Requires permission `conversations:read_unassigned`.
         */
        get: operations["listConversationsUnassigned"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/teams/{id}/conversations/unassigned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A team's conversations with no agent assigned (paged)
         * @description Needs `conversations:read_team_inbox` and membership of the team, or `conversations:read_all`. `page` (default 1) and `page_size` (default 30, clamped to 1..100). Filters (repeat a parameter for several values): `status`, `priority`, `tag` (names, case-insensitive; unknown → 400), `inbox_id`, `team_id`, `assignee_id`, `contact_id`. Order: `order_by` = last_message_at (default) | created_at | updated_at | waiting_since | next_sla_deadline_at (nulls last in both directions), `order` = desc (default) | asc; id breaks ties.
         *
         *     Any authenticated agent at the route level; the service then applies the team inbox rule: `conversations:read_all`, or `conversations:read_team_inbox` and membership of the team (else 403).
         */
        get: operations["listTeamConversationsUnassigned"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's views with their open and unread conversations (the navigation's badges)
         * @description Per view (mine, unassigned, all, each team, each inbox): open conversations and, of those, the ones with unread messages from the contact for the caller. A view the caller may not read (the permissions of its list) is null or not listed. Each count stops at `cap` + 1.
         *
         *     Requires permission `conversations:read`.
         */
        get: operations["getConversationsCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a conversation
         * @description An existing contact, named by `contact_id` or by `contact_email`, must be readable by the caller (the contact access rule): an unknown `contact_id` is 404, a contact the caller may not read is 403 (by id or by email; no duplicate contact is made).
         *
         *     Requires permission `conversations:write`.
         */
        post: operations["createConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a conversation
         * @description Conversation access rules apply: 404 unknown, 403 not yours to read.
         *
         *     Any authenticated agent at the route level; the service then applies the conversation access rules: an unknown conversation is a 404, one the caller may not read a 403.
         */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the status (by name); snooze with snoozed_until
         * @description Unknown status → 400. `snoozed_until` only with a waiting status; required for Snoozed. A snoozed conversation opens again at that time.
         *
         *     Requires permission `conversations:update_status`.
         */
        put: operations["updateConversationStatus"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/priority": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set the priority (by name)
         * @description Requires permission `conversations:update_priority`.
         */
        put: operations["updateConversationPriority"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/assignee/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Assign an agent
         * @description Requires permission `conversations:update_user_assignee`.
         */
        put: operations["updateConversationAssigneeUser"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/assignee/team": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Assign a team
         * @description An assigned agent who is not a member of the new team is unassigned; a round-robin team then gives the conversation to its next available agent.
         *
         *     Requires permission `conversations:update_team_assignee`.
         */
        put: operations["updateConversationAssigneeTeam"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/assignee/user/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Remove the assigned agent
         * @description Requires permission `conversations:update_user_assignee`.
         */
        put: operations["removeConversationAssigneeUser"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/assignee/team/remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Remove the assigned team
         * @description Requires permission `conversations:update_team_assignee`.
         */
        put: operations["removeConversationAssigneeTeam"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/sla": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The SLA applied to the conversation (data null when none)
         * @description Each metric (first_response, next_response, resolution) is null when the policy set no target for it.
         *
         *     Any authenticated agent at the route level; the service then applies the conversation access rules: an unknown conversation is a 404, one the caller may not read a 403.
         */
        get: operations["getConversationSla"];
        /**
         * Apply an SLA policy (a new applied_sla_id) or remove it (null)
         * @description Answers the applied SLA as `GET …/sla` does. Unknown policy → 400.
         *
         *     Any authenticated agent at the route level; the service then applies `sla:manage` or `conversations:update_team_assignee` (else 403, checked first, like the permission of the other conversation changes), then the conversation access rules (unknown → 404, not readable → 403).
         */
        put: operations["updateConversationSla"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add, remove or set tags
         * @description `action` add_tags (default) | remove_tags | set_tags. Tag names are matched case-insensitively; an unknown name is a 400.
         *
         *     Requires permission `conversations:update_tags`.
         */
        post: operations["createConversationTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/last-seen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Mark the conversation as seen by the caller
         * @description Any authenticated agent at the route level; the service then applies the conversation access rules: an unknown conversation is a 404, one the caller may not read a 403.
         */
        put: operations["updateConversationLastSeen"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/mark-unread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Mark the newest message from the contact as unread for the caller
         * @description Any authenticated agent at the route level; the service then applies the conversation access rules: an unknown conversation is a 404, one the caller may not read a 403.
         */
        put: operations["markConversationUnread"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation's messages, newest first (paged)
         * @description Includes private notes and activity messages. Conversation access rules apply.
         *
         *     Requires permission `messages:read`.
         */
        get: operations["listConversationMessages"];
        put?: never;
        /**
         * Send a reply or add a private note
         * @description HTML is sanitised and `text_content` derived from it; HTML nested deeper than 100 levels is a 400. A reply starts `pending` and becomes `sent` or `failed` when the channel delivers it; a private note is `sent` at once. Send `Idempotency-Key` to make retries safe: a retry with the same key (within 24 h) returns the first message; the same key with a different request is a 422.
         *
         *     Requires permission `messages:write`.
         */
        post: operations["createConversationMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/messages/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one message
         * @description A message of another conversation is a 404.
         *
         *     Requires permission `messages:read`.
         */
        get: operations["getConversationMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/mentioned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversations the caller was mentioned in (paged)
         * @description Newest mention first; each conversation once, with its newest mention (`mentioned_at`, `mention_message_uuid`). Only conversations the caller may still read are listed. `page` (default 1) and `page_size` (default 30, clamped to 1..100).
         *
         *     Requires permission `conversations:read`.
         */
        get: operations["listConversationsMentioned"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/followers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The agents following a conversation
         * @description Oldest follower first. The caller must be able to read the conversation (the conversation access rules); an unknown conversation or one the caller may not read is a 404.
         *
         *     Requires permission `conversations:read`.
         */
        get: operations["listConversationFollowers"];
        put?: never;
        /**
         * Follow a conversation, or add another agent as a follower
         * @description Without `agent_id` the caller follows it. Changing another agent’s follow needs `conversations:update_user_assignee` (else 403); the caller’s own needs nothing more. The agent must be able to read the conversation (else 422). Answers the followers. The caller must be able to read the conversation (the conversation access rules); an unknown conversation or one the caller may not read is a 404.
         *
         *     Requires permission `conversations:read`.
         */
        post: operations["createConversationFollower"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/followers/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Stop following a conversation, or remove another agent
         * @description Changing another agent’s follow needs `conversations:update_user_assignee` (else 403); the caller’s own needs nothing more. An agent who does not follow it is no error. Answers the followers. The caller must be able to read the conversation (the conversation access rules); an unknown conversation or one the caller may not read is a 404.
         *
         *     Requires permission `conversations:read`.
         */
        delete: operations["deleteConversationFollower"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's draft of a conversation
         * @description What the caller was writing, from any device; `null` when there is none. A conversation that is unknown, or that the caller may not read, is a 404.
         *
         *     Any authenticated agent at the route level; the service then applies the conversation access rules, except that a conversation the caller may not read is a 404 like an unknown one; saving a draft also needs `messages:write` (403).
         */
        get: operations["getConversationDraft"];
        /**
         * Save the caller's draft of a conversation
         * @description Replaces the whole draft. `content` is sanitised like a message; `attachments` must be the caller's own uploads not attached to a message yet (else 400). A draft with no text, image or attachment is deleted and the answer is `null`. At most 120 saves a minute per agent (429). Sending a message in the conversation deletes the sender's draft; a draft not updated for 15 days is deleted. A conversation that is unknown, or that the caller may not read, is a 404.
         *
         *     Any authenticated agent at the route level; the service then applies the conversation access rules, except that a conversation the caller may not read is a 404 like an unknown one; saving a draft also needs `messages:write` (403).
         */
        put: operations["updateConversationDraft"];
        post?: never;
        /**
         * Delete the caller's draft of a conversation
         * @description Answers `true` whether or not there was one. A conversation that is unknown, or that the caller may not read, is a 404.
         *
         *     Any authenticated agent at the route level; the service then applies the conversation access rules, except that a conversation the caller may not read is a 404 like an unknown one; saving a draft also needs `messages:write` (403).
         */
        delete: operations["deleteConversationDraft"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The other agents' drafts of a conversation
         * @description Who else is writing in the conversation and when they last saved, newest first; never the content. A conversation that is unknown, or that the caller may not read, is a 404.
         *
         *     Any authenticated agent at the route level; the service then applies the conversation access rules, except that a conversation the caller may not read is a 404 like an unknown one; saving a draft also needs `messages:write` (403).
         */
        get: operations["listConversationDrafts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/macros": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The macros visible to the caller, by name
         * @description Global macros, the team macros of the caller's teams and the caller's own user macros (every macro with `macros:manage`). With `conversation_uuid`: only those whose `visible_when` includes that conversation's status category (404 unknown, 403 not readable).
         *
         *     Any authenticated agent at the route level; the service then applies macro visibility: a macro the caller may not see is a 404; global and team macros need `macros:manage` to change.
         */
        get: operations["listMacros"];
        put?: never;
        /**
         * Create a macro
         * @description Global and team macros need `macros:manage`; any agent may create, change and delete their own `user` macros (user_id = themselves). A macro the caller may not see answers 404.
         *
         *     Any authenticated agent at the route level; the service then applies macro visibility: a macro the caller may not see is a 404; global and team macros need `macros:manage` to change.
         */
        post: operations["createMacro"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/macros/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a macro
         * @description A macro the caller may not see answers 404.
         *
         *     Any authenticated agent at the route level; the service then applies macro visibility: a macro the caller may not see is a 404; global and team macros need `macros:manage` to change.
         */
        get: operations["getMacro"];
        /**
         * Update a macro (partial: omitted fields keep their value)
         * @description Global and team macros need `macros:manage`; any agent may create, change and delete their own `user` macros (user_id = themselves). A macro the caller may not see answers 404. The caller must be allowed to manage the macro both before and after the change. Changing `actions` checks them again; omitting it keeps them as they are.
         *
         *     Any authenticated agent at the route level; the service then applies macro visibility: a macro the caller may not see is a 404; global and team macros need `macros:manage` to change.
         */
        put: operations["updateMacro"];
        post?: never;
        /**
         * Delete a macro
         * @description Global and team macros need `macros:manage`; any agent may create, change and delete their own `user` macros (user_id = themselves). A macro the caller may not see answers 404.
         *
         *     Any authenticated agent at the route level; the service then applies macro visibility: a macro the caller may not see is a 404; global and team macros need `macros:manage` to change.
         */
        delete: operations["deleteMacro"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/macros/{id}/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a macro to a conversation
         * @description Runs the macro's actions in one transaction, each needing its conversation permission (403 and nothing changes when one is missing), counts the use and returns the conversation with the macro's `message_content` rendered for it. With `{"send_message": true}` a non-empty rendered message is also sent as a reply (needs `messages:write`), in the same transaction. 404: unknown conversation, or a macro unknown or not visible to the caller; 403: a conversation the caller may not read; 422: the macro is not offered for the conversation's status category (`visible_when`); 400: something an action names no longer exists.
         *
         *     Any authenticated agent at the route level; the service then applies macro visibility: a macro the caller may not see is a 404; global and team macros need `macros:manage` to change.
         */
        post: operations["applyConversationMacro"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/overview/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tag distribution report
         * @description Over the conversations created in the window: the 10 most used tags, how many conversations carry a tag and how many do not, and the tagged share as a percentage (one decimal).
         *
         *     Requires permission `reports:manage`.
         */
        get: operations["getReportsOverviewTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/service": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service report: volumes, response and resolution times, SLA, CSAT, per day, agent and team
         * @description Dates are local to the general settings' time zone, both inclusive, at most 366 days; absent, the last 30 days ending today. `from` after `to` or a bad date → 400. Filters: `team_id`, `inbox_id`, `agent_id` (the conversation's now; for resolutions, the team and assignee at that moment) and `tag` (a name, case-insensitive; unknown → 400). `created` counts conversations by creation date; `resolved` counts each move into a resolved status on its date (a reopen then a resolve counts twice), credited to the assignee then. `first_response_seconds`: conversations first answered in the range, from creation to the first public agent reply; `resolution_seconds`: from creation to each resolution in the range. Times are calendar seconds, rounded. Counts are exact; medians and 90th percentiles are read from log-spaced bins (4% wide) and are within 2% of the exact value (or 1 second below a second), except with a `tag` filter or just after a time-zone change, when they are exact.
         *
         *     Requires permission `reports:manage`.
         */
        get: operations["getReportsService"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/overview/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live counts: conversations by state, agents by availability
         * @description `open` / `waiting`: conversations by status category. `unassigned`: not resolved and no agent assigned. `awaiting_first_reply`: not resolved and no agent reply yet. `agents`: enabled agents per availability status.
         *
         *     Requires permission `reports:manage`.
         */
        get: operations["getReportsOverviewCounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search conversations, messages and contacts
         * @description Any agent may search; each section holds only what the caller may read, and a caller who may read nothing gets empty sections. `limit` applies to each section.
         *
         *     Query language: every word matches as the start of a word (`reset` finds "resetting"), case- and accent-insensitive both ways (`cafe` finds "Café", `café` finds "cafe"; ß = ss, æ = ae, ø = o…); `"quoted phrases"` match their words adjacent and in order; `-word` or `-"a phrase"` excludes; `a or b` matches either; Chinese, Japanese and Korean text is found anywhere inside longer text. Punctuation separates words (`jane@example.com` is the phrase `jane example com`). A query with nothing but exclusions finds nothing.
         *
         *     - `conversations`: by reference number (exact; `#123` and `123` both work), or the query matching the subject, one tag name, or the contact's name, email or phone. The exact reference match first, then the most recently active. Each hit carries `subject_highlights`, its `tags` with highlights and the contact's `name_highlights`/`email_highlights`.
         *     - `messages`: incoming and outgoing messages and private notes (never activity entries) whose text matches, newest first (the newest windows of 8,192 messages are searched first, more and more of them while they hold fewer than `limit` matches; a phrase is checked on at most the 500 newest messages holding its words; with a word of one or two letters, only the newest 1,000 messages are searched). Each carries its conversation's subject and status (to group hits by conversation), a one-line plain-text `snippet` and its `highlights`. Requires `messages:read`.
         *     - `contacts`: contacts and visitors whose name, email or phone number matches, by name. With `contacts:read_all` any contact; otherwise only contacts of conversations the caller may read. The filters do not apply to contacts.
         *
         *     Filters narrow conversations and messages (a message by its conversation; `from`/`to` by the message's own creation time). Highlights are `[start, end)` offsets in UTF-16 code units into the plain text beside them.
         *
         *     Any authenticated agent at the route level; the service then applies read access per result: each section holds only what the caller may read.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks (secrets masked)
         * @description Every webhook, ordered by name (case-insensitive) then id. An installation has at most 500.
         *
         *     Requires permission `webhooks:manage`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Create a webhook
         * @description Answers 200, like every creation. When `secret` is left out, Parley generates one and this answer is the only one that shows it (masked everywhere else; `POST /webhooks/{id}/secret/rotate` makes a new one); a secret that was given is masked here too. Duplicate name (case-insensitive) → 409; more than 500 webhooks → 422.
         *
         *     Requires permission `webhooks:manage`.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/compact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhooks (id and name)
         * @description Requires permission `webhooks:manage`.
         */
        get: operations["listWebhooksCompact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook (secret masked)
         * @description Requires permission `webhooks:manage`.
         */
        get: operations["getWebhook"];
        /**
         * Update a webhook (the whole object)
         * @description Send the webhook as GET answers it, changed. `name`, `url` and `events` are required; `enabled`, `headers` and `secret` keep their stored value when absent, and the masked secret keeps the stored one. Enabling a disabled webhook clears `disabled_reason` and `failing_since`.
         *
         *     Requires permission `webhooks:manage`.
         */
        put: operations["updateWebhook"];
        post?: never;
        /**
         * Delete a webhook and its delivery log
         * @description Requires permission `webhooks:manage`.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/toggle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Enable or disable a webhook
         * @description Disabling keeps its pending deliveries: they wait until it is enabled again. Enabling a disabled webhook clears `disabled_reason` and `failing_since`.
         *
         *     Requires permission `webhooks:manage`.
         */
        put: operations["toggleWebhook"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret of a webhook
         * @description Generates a new secret and answers the webhook with it, once (masked everywhere else). Every attempt from now on, retries of older deliveries included, is signed with the new secret.
         *
         *     Requires permission `webhooks:manage`.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the deliveries of a webhook (paged, newest first)
         * @description Filter by `status` and `event_type` (repeat a parameter for several values). `total` counts at most 10,000 deliveries, so that the count stays cheap on a long log; pages past it still answer.
         *
         *     Requires permission `webhooks:manage`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery with its request body and attempts
         * @description A delivery of another webhook → 404.
         *
         *     Requires permission `webhooks:manage`.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed webhook.test to a webhook now
         * @description Writes a `webhook.test` delivery (`data`: `{webhook_id, name}`; one attempt) and sends it within the request, whatever the webhook subscribes to and even when it is disabled; answers the delivery with its attempt. The request lasts until the receiver answers or WEBHOOK_TIMEOUT_SECONDS passes.
         *
         *     Requires permission `webhooks:manage`.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attempt a delivery once more, now
         * @description One manual attempt within the request; answers the updated delivery with its attempts. A dead or refused delivery gets exactly one more attempt; a pending or failed one goes on with its schedule if this attempt fails. A succeeded delivery is never sent again (409), nor one being sent at this moment (409). A delivery of another webhook → 404.
         *
         *     Requires permission `webhooks:manage`.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/settings/launcher": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Launcher settings (any origin)
         * @description What the host page needs before the widget opens. `Access-Control-Allow-Origin: *`. A page of a site the inbox's `trusted_domains` leaves out (its `Origin`) gets a 403 naming the site, readable by that page: the loader then shows nothing.
         *
         *     Public: no credentials.
         */
        get: operations["getWidgetChatSettingsLauncher"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Widget settings
         * @description Public: no credentials.
         */
        get: operations["getWidgetChatSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/auth/exchange": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange your site's signed JWT for a verified contact's session
         * @description The JWT is signed with the inbox `secret` (HS256, HS384 or HS512) and must carry `exp`, at most 24 hours after `iat` (or after now without `iat`): sign short-lived tokens (minutes). A bad signature, another algorithm, an expired token or one valid for longer → 401; more than 30 exchanges a minute for one contact → 429; a contact keeps its 20 most recently used sessions per inbox; a missing or invalid claim → 400 naming it; a blocked contact → 403.
         *
         *     Public: no credentials.
         */
        post: operations["createWidgetChatExchange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current widget user
         * @description Public: no credentials.
         */
        get: operations["getWidgetChatMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/conversations/init": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a conversation (a new visitor without a session)
         * @description Without Authorization a visitor is created with its conversation, and its `session_token` is answered. At most 50 new conversations per contact per 24 hours (429).
         *
         *     Public: no credentials.
         */
        post: operations["initWidgetChatConversations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's conversations in this inbox, newest first (at most 200)
         * @description Public: no credentials.
         */
        get: operations["listWidgetChatConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/conversations/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One conversation of the caller with its messages (newest first)
         * @description Public: no credentials.
         */
        get: operations["getWidgetChatConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/conversations/{uuid}/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message (plain text)
         * @description Reopens a waiting or resolved conversation; a Closed one refuses replies (403) when the inbox says so.
         *
         *     Public: no credentials.
         */
        post: operations["createWidgetChatConversationMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/chat/conversations/{uuid}/update-last-seen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark the conversation read by the widget user
         * @description Public: no credentials.
         */
        post: operations["createWidgetChatConversationUpdateLastSeen"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/widget/media/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send files: one new message with every file attached
         * @description multipart/form-data: `conversation_uuid` and one or more `files`. Refusals store nothing: no valid session → 401 whatever the body (not read); uploads disabled → 403; no file or an empty file → 400; a file over the inbox `file_upload.max_size_mb` → 413; an extension not in `allowed_extensions`, or content that does not match it → 415.
         *
         *     Public: no credentials.
         */
        post: operations["uploadWidgetMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/widget-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview a live chat's widget with unsaved settings
         * @description Answers what the widget's settings and launcher routes would answer a visitor if these settings were saved (`PUT /inboxes/{id}` with them as `config`): the same checks (400 naming `config.<field>`), the same defaults, the business hours they name in effect now. Nothing is saved. Not a live-chat inbox → 422.
         *
         *     Requires permission `inboxes:manage`.
         */
        post: operations["createInboxWidgetPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inboxes/{id}/widget-origin-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check whether a site may embed a live chat's widget
         * @description Answers whether a page at `url` may embed the inbox's chat: by the rule the widget applies (the frame's `frame-ancestors`, the launcher's 403), against `trusted_domains` as sent, else as saved. Parley's own origin always may. A malformed address or list → 400; not a live-chat inbox → 422.
         *
         *     Requires permission `inboxes:manage`.
         */
        post: operations["createInboxWidgetOriginCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List single sign-on providers, by name
         * @description Requires permission `oidc:manage`.
         */
        get: operations["listOidcProviders"];
        put?: never;
        /**
         * Add a single sign-on provider
         * @description Saved without contacting the provider (use `POST /oidc/{id}/test` to check it). `client_secret` is required and stored encrypted; the answer carries the `redirect_uri` to register at the provider.
         *
         *     Requires permission `oidc:manage`.
         */
        post: operations["createOidcProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc/enabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The enabled single sign-on providers, for a sign-in page
         * @description Nothing secret: name, label, logo and the URL that starts a sign-in. Rate limited to 120 requests a minute per client address.
         *
         *     Public: no credentials.
         */
        get: operations["listEnabledOidcProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One single sign-on provider
         * @description Answers `{"success": true, "data": …}`: the interface specification gives this one operation `success` in place of `status`. Errors use the usual envelope.
         *
         *     Requires permission `oidc:manage`.
         */
        get: operations["getOidcProvider"];
        /**
         * Replace a single sign-on provider
         * @description The full object: a field with a default that is left out takes its default. Leave `client_secret` out, or send the mask, to keep the stored secret.
         *
         *     Requires permission `oidc:manage`.
         */
        put: operations["updateOidcProvider"];
        post?: never;
        /**
         * Delete a single sign-on provider
         * @description Sign-ins under way with it are refused when they come back, and the sessions it opened are ended. Agents keep their accounts.
         *
         *     Requires permission `oidc:manage`.
         */
        delete: operations["deleteOidcProvider"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a provider: run its discovery now
         * @description Reads `{provider_url}/.well-known/openid-configuration` (bypassing the cache) and reports the endpoints Parley will use. Unreachable or broken discovery → 502, too slow → 504.
         *
         *     Requires permission `oidc:manage`.
         */
        post: operations["testOidcProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc/{id}/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start a sign-in with this provider (browser)
         * @description Redirects (302) to the provider with `state`, `nonce` and a PKCE S256 challenge, and sets the short-lived (10 minutes), encrypted, HttpOnly `parley_oidc` cookie that the finish route reads. `next`: a path on this site to land on afterwards. A refusal is a small HTML page for a browser (Accept: text/html), else the error envelope. Rate limited per client address (LOGIN_RATE_LIMIT_PER_MINUTE).
         *
         *     Public: no credentials.
         */
        get: operations["startOidcLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/oidc/{id}/finish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Finish a sign-in: the redirect URI (browser)
         * @description The provider sends the browser back here. Checks the state against the `parley_oidc` cookie (which it clears, whatever the outcome), exchanges the code with the PKCE verifier, verifies the ID token (signature, issuer, audience, expiry, nonce), requires a verified email and an enabled agent with it (or creates one when the provider auto-provisions), then sets the session cookies as `POST /auth/login` does and redirects (302) to `next`. A refusal is a small HTML page for a browser (Accept: text/html), else the error envelope; no session is opened.
         *
         *     Public: no credentials.
         */
        get: operations["finishOidcLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/contacts/{id}/page-visits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A contact's last page visits (newest first, at most 20)
         * @description Sent by the live-chat widget socket (`page_visit` frames); agents hear of new ones as `contact_update`.
         *
         *     Requires permission `contacts:read`; the service then applies the contact access rule: `contacts:read_all`, or a conversation of the contact the caller may read; an unknown contact is a 404, one the caller may not read a 403.
         */
        get: operations["listContactPageVisits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{cuuid}/viewers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who is viewing the conversation now, and who is replying
         * @description The agents whose agent socket sent `viewing` for this conversation (on any instance), one entry per agent whatever the number of their tabs, in the order they came: `replying` while one of their tabs sends typing frames of a public reply. The same list as the socket frame `conversation_viewers` (docs/api.md, "Presence").
         *
         *     Any authenticated agent at the route level; the service then applies the conversation access rules, with one answer for unknown and not readable: a 404 (nothing tells that the conversation exists).
         */
        get: operations["listConversationViewers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show the AI provider
         * @description The OpenAI-compatible provider completions go to, its key masked; `null` when none is configured.
         *
         *     Requires permission `ai:manage`.
         */
        get: operations["getAiProvider"];
        /**
         * Set the AI provider
         * @description Any OpenAI-compatible endpoint (OpenAI, Azure-compatible gateways, Ollama, vLLM, LM Studio). The key is stored encrypted and never answered; the mask keeps it. `base_url` and `model`, when left out, keep their stored values (defaults for a new provider).
         *
         *     Requires permission `ai:manage`.
         */
        put: operations["updateAiProvider"];
        post?: never;
        /**
         * Remove the AI provider
         * @description Completions answer 400 until a provider is set again. 404 when none is configured.
         *
         *     Requires permission `ai:manage`.
         */
        delete: operations["deleteAiProvider"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether AI rewriting is available
         * @description `enabled` is true when a provider is configured: the web app offers "Rewrite with AI" only then. Any signed-in agent may ask; the provider itself is `GET /ai/provider` (`ai:manage`).
         *
         *     Any authenticated agent.
         */
        get: operations["getAiStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the AI prompts, by title
         * @description Any authenticated agent.
         */
        get: operations["listAiPrompts"];
        put?: never;
        /**
         * Add an AI prompt
         * @description A custom prompt agents can pick besides the built-in ones. 409 when the key is taken.
         *
         *     Requires permission `ai:manage`.
         */
        post: operations["createAiPrompt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/prompts/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change an AI prompt's text
         * @description The title is kept when left out.
         *
         *     Requires permission `ai:manage`.
         */
        put: operations["updateAiPrompt"];
        post?: never;
        /**
         * Delete a custom AI prompt
         * @description The six built-in prompts cannot be deleted (422).
         *
         *     Requires permission `ai:manage`.
         */
        delete: operations["deleteAiPrompt"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/completion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rewrite a draft with an AI prompt
         * @description `data` is the rewritten text. An HTML draft gets sanitised HTML back, plain text gets plain text. No provider or an unknown prompt key → 400; the provider failing or refusing → 502 NetworkException; no answer within AI_TIMEOUT_MS → 504. Limited per agent (AI_RATE_LIMIT_PER_MINUTE; 429 with Retry-After).
         *
         *     Requires permission `messages:write`.
         */
        post: operations["createAiCompletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit log entries, newest first
         * @description Who changed what, when and from where; every secret masked. Paged (`page`, `page_size` 1..100), ordered by `created_at` then `id`, both descending. Filters, all optional and combined with AND: `actor_id` (an agent: its sessions and its API key; with `actor_type=automation`, a rule), `actor_type`, `action` (one of `GET /audit-log/actions`), `resource_type`, `from` (included) and `to` (excluded), RFC 3339 instants with their offset. An unknown action or actor type, a malformed date, `from` after `to`, or an unknown parameter → 400 naming it.
         *
         *     Requires permission `audit:read`.
         */
        get: operations["listAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log/actions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The actions and resource types of the audit log
         * @description `actions`: every action an entry can have (the values of the `action` filter); `resource_types`: the resource types the log holds entries about now.
         *
         *     Requires permission `audit:read`.
         */
        get: operations["getAuditLogActions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit-log/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export audit log entries as CSV
         * @description The entries the list would give for the same filters, all of them, newest first, streamed as `text/csv` (UTF-8, RFC 4180: every cell quoted, lines end with CRLF) in an attachment. Columns: `id`, `created_at`, `actor_type`, `actor_id`, `actor_name`, `ip`, `user_agent`, `request_id`, `action`, `resource_type`, `resource_id`, `resource_name`, `changes`; `changes` is the JSON of the entry's changes. A cell that a spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `'`. Read in batches of 500 entries: memory stays flat whatever the size. `format` is required; only `csv` exists. Filters, all optional and combined with AND: `actor_id` (an agent: its sessions and its API key; with `actor_type=automation`, a rule), `actor_type`, `action` (one of `GET /audit-log/actions`), `resource_type`, `from` (included) and `to` (excluded), RFC 3339 instants with their offset. An unknown action or actor type, a malformed date, `from` after `to`, or an unknown parameter → 400 naming it.
         *
         *     Requires permission `audit:read`.
         */
        get: operations["getAuditLogExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List my notifications (paged)
         * @description The caller’s notifications shown in the app, about conversations they may still read, newest first (id breaks ties). `unread=true`: only those not read yet. Kept 90 days.
         *
         *     Any authenticated agent.
         */
        get: operations["listNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/unread-count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many of my notifications are unread
         * @description The number the bell shows (conversations the caller may still read). Cheap enough to ask on every page load.
         *
         *     Any authenticated agent.
         */
        get: operations["getNotificationsUnreadCount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark all my notifications read
         * @description Answers how many were unread. Those read already keep the time they were read.
         *
         *     Any authenticated agent.
         */
        post: operations["createNotificationsReadAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Mark a notification read
         * @description Answers the notification. Marking a read one again keeps the time it was first read. Another agent’s notification, or an unknown id, is a 404.
         *
         *     Any authenticated agent.
         */
        put: operations["updateNotificationRead"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{id}/unread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Mark a notification unread
         * @description Answers the notification (`read_at: null`). Another agent’s notification, or an unknown id, is a 404.
         *
         *     Any authenticated agent.
         */
        put: operations["updateNotificationUnread"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a notification
         * @description Another agent’s notification, or an unknown id, is a 404.
         *
         *     Any authenticated agent.
         */
        delete: operations["deleteNotification"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/notification-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * My notification preferences
         * @description For each type, whether it is shown in the app, mailed and pushed; `email_digest`: one mail per 15 minutes instead of one per notification; `sound` and `title_count`: what the web app does on a new notification. Defaults: in the app every type, by email `assigned`, `mentioned` and `sla_breached`, push none, no digest, sound and title count on.
         *
         *     Any authenticated agent.
         */
        get: operations["getAgentMeNotificationSettings"];
        /**
         * Change my notification preferences
         * @description A partial change: what the body leaves out keeps its value (`{"types": {"reply": {"email": true}}}` changes one choice); the whole record as GET answered it is accepted too. An unknown type, channel or field is a 400. Answers the preferences as they are now.
         *
         *     Any authenticated agent.
         */
        put: operations["updateAgentMeNotificationSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/push/vapid-public-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The VAPID public key
         * @description The application server key (RFC 8292) to pass to PushManager.subscribe as `applicationServerKey`. Made once per installation, on first use; its private key is stored encrypted with SECRET_KEY. Any signed-in agent.
         *
         *     Any authenticated agent.
         */
        get: operations["getPushVapidPublicKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/push-subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List my push subscriptions
         * @description The calling agent's browsers that receive its notifications by Web Push, oldest first. The endpoint (a capability: whoever knows it may push to the device) and the keys are never answered: `endpoint_host` and `endpoint_sha256` identify it.
         *
         *     Any authenticated agent.
         */
        get: operations["listAgentMePushSubscriptions"];
        put?: never;
        /**
         * Record a push subscription
         * @description Send PushSubscription.toJSON() of a browser subscribed with the VAPID public key. `endpoint` must be https and must not be (or resolve to) a loopback, private, link-local or other non-public address, unless its host is in PUSH_ALLOW_HOSTS (400 naming the field); `keys.p256dh` is an uncompressed P-256 point, `keys.auth` 16 bytes, both base64url. Sending an endpoint again updates its keys (and makes it the caller's: a browser shows the notifications of the agent who last turned push on there). At most 20 per agent (422).
         *
         *     Any authenticated agent.
         */
        post: operations["createAgentMePushSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/me/push-subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a push subscription
         * @description The browser gets no more pushes. Another agent's subscription, or an unknown id → 404.
         *
         *     Any authenticated agent.
         */
        delete: operations["deleteAgentMePushSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/csat/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a CSAT survey (for the contact answering it)
         * @description Public: no credentials.
         */
        get: operations["getCsat"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/csat/{uuid}/response": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a CSAT survey, or change the answer (for 7 days after the survey was sent; then 422)
         * @description Public: no credentials.
         */
        post: operations["createCsatResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "conversation.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.created (sent to your webhook)
         * @description A conversation started, on any channel. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.status_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.status_changed (sent to your webhook)
         * @description A conversation changed status (snoozes and wake-ups included). Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationStatusChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.assigned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.assigned (sent to your webhook)
         * @description An agent or a team was set on a conversation (`assignee_type`). Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationAssigned"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.unassigned": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.unassigned (sent to your webhook)
         * @description The agent or the team of a conversation was removed (`assignee_type`). Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationUnassigned"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.priority_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.priority_changed (sent to your webhook)
         * @description A conversation changed priority. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationPriorityChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.tags_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.tags_changed (sent to your webhook)
         * @description Tags were added to, removed from or replaced on a conversation (`tags`: all of them afterwards). Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationTagsChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.sla_warning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.sla_warning (sent to your webhook)
         * @description A deadline of the SLA applied to a conversation is `warning_minutes` away (`metric`, `deadline_at`); once per deadline. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationSlaWarning"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.sla_breached": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * conversation.sla_breached (sent to your webhook)
         * @description A deadline of the SLA applied to a conversation passed unmet (`metric`, `deadline_at`); once per deadline. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookConversationSlaBreached"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * message.created (sent to your webhook)
         * @description A message or a private note was added to a conversation. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookMessageCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * message.updated (sent to your webhook)
         * @description A message changed state (e.g. `pending` → `sent`). Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookMessageUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contact.created (sent to your webhook)
         * @description A contact was created: `data` is the contact record. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookContactCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.enabled_changed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contact.enabled_changed (sent to your webhook)
         * @description A contact was blocked (`enabled` false) or unblocked. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookContactEnabledChanged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "contact.merged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * contact.merged (sent to your webhook)
         * @description A widget visitor (`merged_contact_id`) was merged into a verified contact (`contact_id`) with its conversations. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookContactMerged"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test (sent to your webhook)
         * @description Sent by `POST /api/v1/webhooks/{id}/test`, whatever the webhook subscribes to. Standard Webhooks: retried with backoff until your endpoint answers 2xx (docs/api.md, "Webhooks").
         */
        post: operations["webhookWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description Every error answer has this shape. */
        ErrorEnvelope: {
            /** @enum {string} */
            status: "error";
            message: string;
            data: unknown;
            /** @enum {string} */
            error_type: "GeneralException" | "PermissionException" | "InputException" | "DataException" | "NetworkException" | "NotFoundException" | "ConflictException" | "UnauthorizedException" | "RateLimitException";
        };
        /** MyAgent */
        MyAgent: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            first_name: string;
            last_name: string;
            /** @description Email address */
            email: string | null;
            /**
             * @description `agent` for agents; `contact` or `visitor` for contacts
             * @enum {string}
             */
            type: "agent" | "contact" | "visitor";
            /** @enum {string} */
            availability_status: "available" | "busy" | "away" | "offline";
            phone_number_country_code: string | null;
            phone_number: string | null;
            avatar_url: string | null;
            enabled: boolean;
            /** Format: date-time */
            last_active_at: string | null;
            /** Format: date-time */
            last_login_at: string | null;
            roles: string[];
            permissions: string[];
            custom_attributes: {
                [key: string]: unknown;
            };
            teams: {
                id: number;
                name: string;
                emoji: string;
            }[];
            api_key: string | null;
            /** Format: date-time */
            api_key_last_used_at: string | null;
            /** @description Two-factor sign-in (TOTP) is on */
            two_factor_enabled: boolean;
            /** @description This password session is held at enrolment: a role requires two-factor sign-in, which the agent has not set up. Until it does, every call but GET/PUT /agents/me, /agents/me/2fa/* and /auth/logout answers 403 (docs/api.md, "Two-factor sign-in"). */
            mfa_setup_required: boolean;
        };
        /** MfaChallenge */
        MfaChallenge: {
            /** @enum {boolean} */
            mfa_required: true;
            /** @description Opaque; send it with a code to POST /api/v1/auth/mfa within 5 minutes */
            challenge: string;
        };
        /** AgentSession */
        AgentSession: {
            /**
             * Format: uuid
             * @description The session’s public id (never its cookie, nor a hash of it)
             */
            id: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description Last request made with the session, written at most once a minute; null until its first use after sign-in
             */
            last_seen_at: string | null;
            /** @description The client address the session was opened from */
            ip: string | null;
            /** @description The User-Agent header the session was opened with (at most 512 characters) */
            user_agent: string | null;
            /** @description The user agent read by the server */
            device: {
                /** @description The browser the user agent names ("Chrome"), or null */
                browser: string | null;
                /** @description The operating system the user agent names ("Linux", "iOS"), or null */
                os: string | null;
            };
            /** @description The session this request was made with (always false with API credentials) */
            current: boolean;
        };
        /** SetupState */
        SetupState: {
            /** @description True while no agent exists: the web app then shows the setup form */
            needed: boolean;
            /** @description The address Parley is served at (BASE_URL). Live updates accept a browser's session only from its origin: the web app opened at another address says so and links here. */
            base_url: string;
        };
        /** Agent */
        Agent: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            first_name: string;
            last_name: string;
            /** @description Email address */
            email: string | null;
            /**
             * @description `agent` for agents; `contact` or `visitor` for contacts
             * @enum {string}
             */
            type: "agent" | "contact" | "visitor";
            /** @enum {string} */
            availability_status: "available" | "busy" | "away" | "offline";
            phone_number_country_code: string | null;
            phone_number: string | null;
            avatar_url: string | null;
            enabled: boolean;
            /** Format: date-time */
            last_active_at: string | null;
            /** Format: date-time */
            last_login_at: string | null;
            roles: string[];
            permissions: string[];
            custom_attributes: {
                [key: string]: unknown;
            };
            teams: {
                id: number;
                name: string;
                emoji: string;
            }[];
            api_key: string | null;
            /** Format: date-time */
            api_key_last_used_at: string | null;
            /** @description Two-factor sign-in (TOTP) is on */
            two_factor_enabled: boolean;
        };
        /** Role */
        Role: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            description: string;
            permissions: string[];
            /** @description Admin and Agent are built in: they cannot be deleted or renamed */
            is_builtin: boolean;
            /** @description Its agents must sign in with two factors (docs/api.md, "Two-factor sign-in") */
            require_2fa: boolean;
        };
        /** Team */
        Team: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            emoji: string;
            name: string;
            /** @enum {string} */
            conversation_assignment_type: "round_robin" | "manual";
            timezone: string;
            business_hours_id: number | null;
            sla_policy_id: number | null;
            max_auto_assigned_conversations: number;
        };
        /** Tag */
        Tag: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
        };
        /** ConversationStatus */
        ConversationStatus: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            /** @enum {string} */
            category: "open" | "waiting" | "resolved";
            /** @description Open, Snoozed, Resolved and Closed cannot be renamed or deleted */
            is_system: boolean;
        };
        /** Priority */
        Priority: {
            id: number;
            /** Format: date-time */
            created_at: string;
            name: string;
        };
        /** BusinessHours */
        BusinessHours: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            description: string;
            /** @description IANA time zone of the hours and holidays */
            timezone: string;
            /** @description Open at every hour; hours and holidays are kept but not used */
            always_open: boolean;
            /** @description Per weekday, any number of open intervals; one crossing midnight is written as two (…"24:00" and "00:00"…) */
            hours: {
                /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                monday: {
                    /** @description HH:MM, 00:00 to 23:59, local time */
                    open: string;
                    /** @description HH:MM, 00:01 to 24:00, after open, local time */
                    close: string;
                }[];
                /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                tuesday: {
                    /** @description HH:MM, 00:00 to 23:59, local time */
                    open: string;
                    /** @description HH:MM, 00:01 to 24:00, after open, local time */
                    close: string;
                }[];
                /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                wednesday: {
                    /** @description HH:MM, 00:00 to 23:59, local time */
                    open: string;
                    /** @description HH:MM, 00:01 to 24:00, after open, local time */
                    close: string;
                }[];
                /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                thursday: {
                    /** @description HH:MM, 00:00 to 23:59, local time */
                    open: string;
                    /** @description HH:MM, 00:01 to 24:00, after open, local time */
                    close: string;
                }[];
                /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                friday: {
                    /** @description HH:MM, 00:00 to 23:59, local time */
                    open: string;
                    /** @description HH:MM, 00:01 to 24:00, after open, local time */
                    close: string;
                }[];
                /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                saturday: {
                    /** @description HH:MM, 00:00 to 23:59, local time */
                    open: string;
                    /** @description HH:MM, 00:01 to 24:00, after open, local time */
                    close: string;
                }[];
                /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                sunday: {
                    /** @description HH:MM, 00:00 to 23:59, local time */
                    open: string;
                    /** @description HH:MM, 00:01 to 24:00, after open, local time */
                    close: string;
                }[];
            };
            /** @description Closed local days, by date */
            holidays: {
                /**
                 * Format: date
                 * @description YYYY-MM-DD, a local date in the schedule time zone
                 */
                date: string;
                name: string;
                /** @description Repeats on this month and day every year */
                yearly: boolean;
            }[];
        };
        /** GeneralSettings */
        GeneralSettings: {
            /** @description The default business hours (teams without their own use them); null: none */
            business_hours_id: number | null;
            /** @description IANA time zone of reports; TIMEZONE until one is set */
            timezone: string;
        };
        /** SlaPolicy */
        SlaPolicy: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            description: string;
            first_response_minutes: number | null;
            next_response_minutes: number | null;
            resolution_minutes: number | null;
            warning_minutes: number | null;
            business_hours_only: boolean;
        };
        /**
         * Contact
         * @description The Agent record, plus the contact-only fields.
         */
        Contact: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            first_name: string;
            last_name: string;
            /** @description Email address */
            email: string | null;
            /**
             * @description `agent` for agents; `contact` or `visitor` for contacts
             * @enum {string}
             */
            type: "agent" | "contact" | "visitor";
            /** @enum {string} */
            availability_status: "available" | "busy" | "away" | "offline";
            phone_number_country_code: string | null;
            phone_number: string | null;
            avatar_url: string | null;
            enabled: boolean;
            /** Format: date-time */
            last_active_at: string | null;
            /** Format: date-time */
            last_login_at: string | null;
            roles: string[];
            permissions: string[];
            custom_attributes: {
                [key: string]: unknown;
            };
            teams: {
                id: number;
                name: string;
                emoji: string;
            }[];
            api_key: string | null;
            /** Format: date-time */
            api_key_last_used_at: string | null;
            /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
            load_remote_images: boolean;
        };
        /**
         * ContactNote
         * @description A note on a contact. HTML, sanitised on the way in exactly as message content is: an allow-list of formatting tags (p, br, b, i, a, lists, headings, tables, img…) is kept, everything else (script, style, iframe, event handlers such as onerror, javascript: and data: links) is removed. Plain text is read as HTML too: `<` and `&` come back escaped, and line breaks need <br> or <p>.
         */
        ContactNote: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            contact_id: number;
            /** @description The note as stored: sanitised HTML, safe to render as it is */
            note: string;
            /** @description The author (an agent); null if the author no longer exists */
            user_id: number | null;
            /** @description The author's first name */
            first_name: string;
            /** @description The author's last name */
            last_name: string;
            /** @description The author's avatar */
            avatar_url: string | null;
        };
        /** ImapConfig */
        ImapConfig: {
            /** @description Host name or IP address */
            host: string;
            port: number;
            /** @default  */
            username: string;
            /**
             * @description Stored encrypted; answered as "••••••••••". Send the mask back, or leave it out on update, to keep it.
             * @default
             */
            password: string;
            /**
             * @description none | starttls | tls
             * @enum {string}
             */
            tls: "none" | "starttls" | "tls";
            /**
             * @description Accept a certificate that does not verify (self-signed test servers only)
             * @default false
             */
            tls_skip_verify: boolean;
            /** @default INBOX */
            mailbox: string;
            /**
             * @description How often the mailbox is checked when the server has no IDLE (and the longest a new mail waits otherwise)
             * @default 60
             */
            poll_interval_seconds: number;
            /**
             * @description On the first connection to a mailbox, the mails received in these last hours are taken in; older ones are left alone
             * @default 24
             */
            import_since_hours: number;
        };
        /** SmtpConfig */
        SmtpConfig: {
            /** @description Host name or IP address */
            host: string;
            port: number;
            /** @default  */
            username: string;
            /**
             * @description Stored encrypted; answered as "••••••••••". Send the mask back, or leave it out on update, to keep it.
             * @default
             */
            password: string;
            /**
             * @description none | starttls | tls
             * @enum {string}
             */
            tls: "none" | "starttls" | "tls";
            /**
             * @description Accept a certificate that does not verify (self-signed test servers only)
             * @default false
             */
            tls_skip_verify: boolean;
            max_connections?: number;
        };
        /** EmailInboxConfig */
        EmailInboxConfig: {
            imap: components["schemas"]["ImapConfig"];
            smtp: components["schemas"]["SmtpConfig"];
            /**
             * @description Replies go out with Reply-To local+conv-<conversation uuid>@domain, so a reply finds its conversation even without headers (the mailbox must accept plus addresses: Gmail and Microsoft 365 do)
             * @default false
             */
            plus_addressing: boolean;
            /**
             * @description A reply to a conversation resolved less than this many days ago reopens it; later, it starts a new conversation linked to the old one
             * @default 30
             */
            reopen_window_days: number;
            /**
             * @description HTML appended to every reply sent from this inbox (sanitised)
             * @default
             */
            signature: string;
        };
        /** EmailInbox */
        EmailInbox: {
            id: number;
            /** Format: uuid */
            uuid: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            enabled: boolean;
            csat_enabled: boolean;
            /** @description The team a new conversation arriving without one enters; null: none */
            default_team_id: number | null;
            /** @description An unassigned conversation goes to the agent who sends its first public reply */
            assign_on_first_reply: boolean;
            from: string | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            channel: "email";
            config: components["schemas"]["EmailInboxConfig"];
        };
        /**
         * LivechatPermissions
         * @default {}
         */
        LivechatPermissions: {
            /** @default true */
            allow_start_conversation: boolean;
            /** @default false */
            prevent_multiple_conversations: boolean;
            /** @default false */
            prevent_reply_to_closed_conversation: boolean;
            /** @default Start a conversation */
            start_conversation_button_text: string;
        };
        /** PrechatField */
        PrechatField: {
            key: string;
            /** @enum {string} */
            type: "text" | "email" | "phone" | "number" | "checkbox" | "date" | "link" | "list" | "textarea";
            label: string;
            /** @default  */
            placeholder: string;
            /** @default false */
            required: boolean;
            /** @default true */
            enabled: boolean;
            /** @default 0 */
            order: number;
            /** @default false */
            is_default: boolean;
            /** @default null */
            custom_attribute_id: number | null;
        };
        /** LivechatInboxConfig */
        LivechatInboxConfig: {
            /** @default Support */
            brand_name: string;
            /**
             * @description Absolute http(s) URL, or empty
             * @default
             */
            website_url: string | "";
            /**
             * @description Absolute http(s) URL, or empty
             * @default
             */
            logo_url: string | "";
            /** @default false */
            dark_mode: boolean;
            /** @default true */
            show_powered_by: boolean;
            /** @default en */
            language: string;
            /** @default {} */
            colors: {
                /**
                 * @description #RGB or #RRGGBB
                 * @default #2563eb
                 */
                primary: string;
            };
            /** @default {} */
            launcher: {
                /**
                 * @default right
                 * @enum {string}
                 */
                position: "left" | "right";
                /** @default {} */
                spacing: {
                    /** @default 20 */
                    side: number;
                    /** @default 20 */
                    bottom: number;
                };
                /**
                 * @description Absolute http(s) URL, or empty
                 * @default
                 */
                logo_url: string | "";
                /**
                 * @description Launcher colour; empty = colors.primary
                 * @default
                 */
                color: string;
            };
            /** @default Hi there! How can we help? */
            greeting_message: string;
            /** @default  */
            introduction_message: string;
            /** @default  */
            chat_introduction: string;
            /** @default  */
            chat_reply_expectation_message: string;
            /** @default false */
            direct_to_conversation: boolean;
            /** @default {} */
            notice_banner: {
                /** @default false */
                enabled: boolean;
                /** @default  */
                text: string;
            };
            /** @default false */
            show_office_hours_in_chat: boolean;
            /** @default false */
            show_office_hours_after_assignment: boolean;
            /** @default We're away right now. Leave us a message and we'll answer as soon as we're back. */
            away_message: string;
            users?: components["schemas"]["LivechatPermissions"];
            visitors?: components["schemas"]["LivechatPermissions"];
            /** @default {} */
            prechat_form: {
                /** @default false */
                enabled: boolean;
                /** @default  */
                title: string;
                /**
                 * @default [
                 *       {
                 *         "key": "name",
                 *         "type": "text",
                 *         "label": "Name",
                 *         "placeholder": "",
                 *         "required": true,
                 *         "enabled": true,
                 *         "order": 1,
                 *         "is_default": true,
                 *         "custom_attribute_id": null
                 *       },
                 *       {
                 *         "key": "email",
                 *         "type": "email",
                 *         "label": "Email",
                 *         "placeholder": "",
                 *         "required": true,
                 *         "enabled": true,
                 *         "order": 2,
                 *         "is_default": true,
                 *         "custom_attribute_id": null
                 *       },
                 *       {
                 *         "key": "phone",
                 *         "type": "phone",
                 *         "label": "Phone",
                 *         "placeholder": "",
                 *         "required": false,
                 *         "enabled": false,
                 *         "order": 3,
                 *         "is_default": true,
                 *         "custom_attribute_id": null
                 *       }
                 *     ]
                 */
                fields: components["schemas"]["PrechatField"][];
            };
            /** @default {} */
            file_upload: {
                /** @default true */
                enabled: boolean;
                /** @default 10 */
                max_size_mb: number;
                /**
                 * @default [
                 *       "jpg",
                 *       "jpeg",
                 *       "png",
                 *       "gif",
                 *       "webp",
                 *       "pdf",
                 *       "txt",
                 *       "csv",
                 *       "log",
                 *       "doc",
                 *       "docx",
                 *       "xls",
                 *       "xlsx",
                 *       "ppt",
                 *       "pptx",
                 *       "zip",
                 *       "mp3",
                 *       "mp4",
                 *       "mov"
                 *     ]
                 */
                allowed_extensions: string[];
            };
            /**
             * @description Host names (or [IPv6]) allowed to embed the widget, with an optional port (no scheme or path; `*.` only as a prefix). Empty = any.
             * @default []
             */
            trusted_domains: string[];
            /**
             * @description IP addresses or CIDR ranges
             * @default []
             */
            blocked_ips: string[];
            /**
             * @description Session lifetime of verified contacts, e.g. 30d, 12h, 90m
             * @default 30d
             */
            session_duration: string;
            /** @default null */
            business_hours_id: number | null;
            /** @description IANA time zone; defaults to the server time zone */
            timezone?: string;
            /** @description JWT secret for verified contacts, 32..256 characters; generated when absent. Stored encrypted; answered as "••••••••••". */
            secret?: string | "••••••••••";
        };
        /** LivechatInbox */
        LivechatInbox: {
            id: number;
            /** Format: uuid */
            uuid: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            enabled: boolean;
            csat_enabled: boolean;
            /** @description The team a new conversation arriving without one enters; null: none */
            default_team_id: number | null;
            /** @description An unassigned conversation goes to the agent who sends its first public reply */
            assign_on_first_reply: boolean;
            from: string | null;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            channel: "livechat";
            config: components["schemas"]["LivechatInboxConfig"];
        };
        /** Inbox */
        Inbox: components["schemas"]["EmailInbox"] | components["schemas"]["LivechatInbox"];
        /** CreateEmailInbox */
        CreateEmailInbox: {
            name: string;
            /** @default true */
            enabled: boolean;
            /** @default false */
            csat_enabled: boolean;
            /** @description A team id: a new conversation of the inbox arriving without a team enters it (the team's SLA policy and round robin apply); null: none */
            default_team_id?: number | null;
            /** @description An unassigned conversation of the inbox goes to the agent who sends its first public reply */
            assign_on_first_reply?: boolean;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            channel: "email";
            /** @description Sender address, e.g. "support@example.com" or "Support <support@example.com>" */
            from: string;
            config: components["schemas"]["EmailInboxConfig"];
        };
        /** CreateLivechatInbox */
        CreateLivechatInbox: {
            name: string;
            /** @default true */
            enabled: boolean;
            /** @default false */
            csat_enabled: boolean;
            /** @description A team id: a new conversation of the inbox arriving without a team enters it (the team's SLA policy and round robin apply); null: none */
            default_team_id?: number | null;
            /** @description An unassigned conversation of the inbox goes to the agent who sends its first public reply */
            assign_on_first_reply?: boolean;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            channel: "livechat";
            /** @description Sender address, e.g. "support@example.com" or "Support <support@example.com>"; required for email inboxes */
            from?: string | null;
            config: components["schemas"]["LivechatInboxConfig"];
        };
        /** CreateInbox */
        CreateInbox: components["schemas"]["CreateEmailInbox"] | components["schemas"]["CreateLivechatInbox"];
        /** InboxCompact */
        InboxCompact: {
            id: number;
            /** Format: uuid */
            uuid: string;
            name: string;
            /**
             * @description email | livechat; cannot change after creation
             * @enum {string}
             */
            channel: "email" | "livechat";
            enabled: boolean;
        };
        /**
         * UpdateInbox
         * @description Partial update. `config`, when sent, replaces the whole config (absent fields take their defaults; absent or masked secrets keep their stored value).
         */
        UpdateInbox: {
            name?: string;
            enabled?: boolean;
            csat_enabled?: boolean;
            /** @description A team id: a new conversation of the inbox arriving without a team enters it (the team's SLA policy and round robin apply); null: none */
            default_team_id?: number | null;
            /** @description An unassigned conversation of the inbox goes to the agent who sends its first public reply */
            assign_on_first_reply?: boolean;
            /** @description Sender address, e.g. "support@example.com" or "Support <support@example.com>"; required for email inboxes */
            from?: string | null;
            /** @description The config of the inbox's channel */
            config?: components["schemas"]["EmailInboxConfig"] | components["schemas"]["LivechatInboxConfig"];
            /**
             * @description Read-only: must equal the current channel when sent
             * @enum {string}
             */
            channel?: "email" | "livechat";
            readonly id?: number;
            /** Format: uuid */
            readonly uuid?: string;
            /** Format: date-time */
            readonly created_at?: string;
            /** Format: date-time */
            readonly updated_at?: string;
        };
        /** RotateSecretBody */
        RotateSecretBody: {
            /**
             * @description End every widget session of the inbox too
             * @default false
             */
            end_sessions: boolean;
        };
        /** EmailCursor */
        EmailCursor: {
            mailbox: string;
            uidvalidity: number;
            /** @description Every mail up to this UID was taken in or passed over */
            last_uid: number;
        };
        /** EmailReaderStatus */
        EmailReaderStatus: {
            /**
             * @description stopped (no instance reads it: disabled, or between holders) | connecting | reading (taking mails in) | idle (waiting with IMAP IDLE) | polling (checking every poll_interval_seconds) | failing (reconnecting after an error: see last_error)
             * @enum {string}
             */
            state: "stopped" | "connecting" | "reading" | "idle" | "polling" | "failing";
            /** @description The instance reading the mailbox (host:pid:…), while its lease lasts */
            holder: string | null;
            /** Format: date-time */
            connected_at: string | null;
            /** Format: date-time */
            last_checked_at: string | null;
            /** @description The last error of the connection or the mailbox (never a password) */
            last_error: string | null;
            /** Format: date-time */
            last_error_at: string | null;
            cursor: components["schemas"]["EmailCursor"] | null;
        };
        /** SkippedMail */
        SkippedMail: {
            id: number;
            uidvalidity: number | null;
            uid: number | null;
            message_id: string | null;
            sender: string | null;
            subject: string | null;
            /** @description Bytes (RFC822.SIZE) */
            size: number | null;
            reason: string;
            /** Format: date-time */
            created_at: string;
        };
        /**
         * EmailConnectionTestBody
         * @description Settings to test in place of the stored ones (unsaved edits). A part left out is tested as stored; an empty body tests both stored servers. A password left out or masked uses the stored one, only while host, port, tls and tls_skip_verify are unchanged.
         */
        EmailConnectionTestBody: {
            imap?: components["schemas"]["ImapConfig"];
            smtp?: components["schemas"]["SmtpConfig"];
        };
        /** EmailConnectionCheck */
        EmailConnectionCheck: {
            ok: boolean;
            /** @description What happened, e.g. "Authentication failed: …", "Connection refused: …", "TLS error: …", "Timed out: …", "Mailbox "X" could not be opened: …" (never a password) */
            message: string;
            duration_ms: number;
        };
        /**
         * EmailConnectionTest
         * @description One answer per server tested
         */
        EmailConnectionTest: {
            imap?: components["schemas"]["EmailConnectionCheck"];
            smtp?: components["schemas"]["EmailConnectionCheck"];
        };
        /**
         * ConversationListItem
         * @description The SLA fields stay null until SLA policies exist.
         */
        ConversationListItem: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            uuid: string;
            reference_number: string;
            /** Format: date-time */
            waiting_since: string | null;
            /** Format: date-time */
            assignee_last_seen_at: string | null;
            inbox_id: number;
            /**
             * @description email | livechat; cannot change after creation
             * @enum {string}
             */
            inbox_channel: "email" | "livechat";
            inbox_name: string;
            sla_policy_id: number | null;
            /** Format: date-time */
            first_reply_at: string | null;
            /** Format: date-time */
            last_reply_at: string | null;
            /** Format: date-time */
            resolved_at: string | null;
            subject: string;
            last_message: string | null;
            /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
            first_message: string | null;
            /** Format: date-time */
            last_message_at: string | null;
            /** @enum {string|null} */
            last_message_sender: "agent" | "contact" | null;
            /** Format: date-time */
            next_sla_deadline_at: string | null;
            priority_id: number | null;
            /** @description Public messages from the contact newer than the caller's last-seen mark */
            unread_message_count: number;
            status: string;
            priority: string | null;
            /** Format: date-time */
            first_response_deadline_at: string | null;
            /** Format: date-time */
            resolution_deadline_at: string | null;
            applied_sla_id: number | null;
            /** Format: date-time */
            next_response_deadline_at: string | null;
            /** Format: date-time */
            next_response_met_at: string | null;
            assigned_user_id: number | null;
            assigned_team_id: number | null;
            tags: string[];
            contact: {
                id: number;
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
                first_name: string;
                last_name: string;
                avatar_url: string | null;
                email: string | null;
            };
        };
        /** CsatSurvey */
        CsatSurvey: {
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            conversation_uuid: string;
            /** Format: date-time */
            created_at: string;
            /**
             * @description The channel the survey went out on
             * @enum {string}
             */
            sent_via: "livechat" | "email";
            /** @description Null until answered */
            rating: number | null;
            feedback: string;
            /** Format: date-time */
            submitted_at: string | null;
            /** Format: date-time */
            editable_until: string;
        };
        /** Conversation */
        Conversation: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            uuid: string;
            reference_number: string;
            /** Format: date-time */
            waiting_since: string | null;
            /** Format: date-time */
            assignee_last_seen_at: string | null;
            inbox_id: number;
            /**
             * @description email | livechat; cannot change after creation
             * @enum {string}
             */
            inbox_channel: "email" | "livechat";
            inbox_name: string;
            sla_policy_id: number | null;
            /** Format: date-time */
            first_reply_at: string | null;
            /** Format: date-time */
            last_reply_at: string | null;
            /** Format: date-time */
            resolved_at: string | null;
            subject: string;
            last_message: string | null;
            /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
            first_message: string | null;
            /** Format: date-time */
            last_message_at: string | null;
            /** @enum {string|null} */
            last_message_sender: "agent" | "contact" | null;
            /** Format: date-time */
            next_sla_deadline_at: string | null;
            priority_id: number | null;
            /** @description Public messages from the contact newer than the caller's last-seen mark */
            unread_message_count: number;
            status: string;
            priority: string | null;
            /** Format: date-time */
            first_response_deadline_at: string | null;
            /** Format: date-time */
            resolution_deadline_at: string | null;
            applied_sla_id: number | null;
            /** Format: date-time */
            next_response_deadline_at: string | null;
            /** Format: date-time */
            next_response_met_at: string | null;
            assigned_user_id: number | null;
            assigned_team_id: number | null;
            tags: string[];
            contact: components["schemas"]["Contact"];
            /** @enum {string} */
            status_category: "open" | "waiting" | "resolved";
            /** Format: date-time */
            snoozed_until: string | null;
            custom_attributes: {
                [key: string]: unknown;
            };
            meta: {
                [key: string]: unknown;
            };
            /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
            csat: components["schemas"]["CsatSurvey"] | null;
        };
        /** AppliedSla */
        AppliedSla: {
            applied_sla_id: number;
            /** @description Null once the policy was deleted */
            sla_policy_id: number | null;
            /** Format: date-time */
            applied_at: string;
            first_response: {
                /** Format: date-time */
                deadline_at: string | null;
                /** Format: date-time */
                met_at: string | null;
                breached: boolean;
            } | null;
            next_response: {
                /** Format: date-time */
                deadline_at: string | null;
                /** Format: date-time */
                met_at: string | null;
                breached: boolean;
            } | null;
            resolution: {
                /** Format: date-time */
                deadline_at: string | null;
                /** Format: date-time */
                met_at: string | null;
                breached: boolean;
            } | null;
        };
        /** Message */
        Message: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            uuid: string;
            /** @enum {string} */
            type: "incoming" | "outgoing" | "activity";
            /** @enum {string} */
            status: "received" | "pending" | "sent" | "failed";
            conversation_id: number;
            /** Format: uuid */
            conversation_uuid: string;
            content: string;
            text_content: string;
            /** @enum {string} */
            content_type: "text" | "html";
            private: boolean;
            sender_id: number | null;
            /** @enum {string} */
            sender_type: "agent" | "contact";
            /** @description Addressing of email messages; activity messages also carry `activity` (what changed). */
            meta: {
                to: string[];
                cc: string[];
                bcc: string[];
                from: string[];
                subject: string;
            } & {
                [key: string]: unknown;
            };
            attachments: {
                uuid: string;
                name: string;
                content_type: string;
                size: number;
                /** @enum {string} */
                disposition: "attachment" | "inline";
                content_id: string | null;
                url: string;
            }[];
        };
        /**
         * MentionedConversation
         * @description A conversation list item plus the caller’s newest mention in it.
         */
        MentionedConversation: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: uuid */
            uuid: string;
            reference_number: string;
            /** Format: date-time */
            waiting_since: string | null;
            /** Format: date-time */
            assignee_last_seen_at: string | null;
            inbox_id: number;
            /**
             * @description email | livechat; cannot change after creation
             * @enum {string}
             */
            inbox_channel: "email" | "livechat";
            inbox_name: string;
            sla_policy_id: number | null;
            /** Format: date-time */
            first_reply_at: string | null;
            /** Format: date-time */
            last_reply_at: string | null;
            /** Format: date-time */
            resolved_at: string | null;
            subject: string;
            last_message: string | null;
            /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
            first_message: string | null;
            /** Format: date-time */
            last_message_at: string | null;
            /** @enum {string|null} */
            last_message_sender: "agent" | "contact" | null;
            /** Format: date-time */
            next_sla_deadline_at: string | null;
            priority_id: number | null;
            /** @description Public messages from the contact newer than the caller's last-seen mark */
            unread_message_count: number;
            status: string;
            priority: string | null;
            /** Format: date-time */
            first_response_deadline_at: string | null;
            /** Format: date-time */
            resolution_deadline_at: string | null;
            applied_sla_id: number | null;
            /** Format: date-time */
            next_response_deadline_at: string | null;
            /** Format: date-time */
            next_response_met_at: string | null;
            assigned_user_id: number | null;
            assigned_team_id: number | null;
            tags: string[];
            contact: {
                id: number;
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
                first_name: string;
                last_name: string;
                avatar_url: string | null;
                email: string | null;
            };
            /** Format: date-time */
            mentioned_at: string;
            /**
             * Format: uuid
             * @description The note of the newest mention
             */
            mention_message_uuid: string;
        };
        /** Follower */
        Follower: {
            /** @description Agent id */
            id: number;
            first_name: string;
            last_name: string;
            avatar_url: string | null;
        };
        /** FollowBody */
        FollowBody: {
            /** @description The agent to add; the caller when absent */
            agent_id?: number;
        };
        /** Draft */
        Draft: {
            /** @description Sanitised HTML, as a message would store it */
            content: string;
            /** @description Written as a private note */
            private: boolean;
            /** @description Uploads (POST /api/v1/media/upload) of the caller not attached to a message yet; an upload purged since is left out */
            attachments: string[];
            /** Format: date-time */
            updated_at: string;
        };
        /** ColleagueDraft */
        ColleagueDraft: {
            agent_id: number;
            name: string;
            private: boolean;
            /** Format: date-time */
            updated_at: string;
        };
        /**
         * MacroActions
         * @description Keyed by action type. Referenced statuses, priorities, teams, agents and tags must exist when the macro is saved and when it is applied (400 naming the field, e.g. `actions.set_status`). On apply they run in the order assign_team, apply_sla, assign_user, set_status, set_priority, set_tags, add_tags, remove_tags, each needing its conversation permission (apply_sla: `sla:manage` or `conversations:update_team_assignee`).
         */
        MacroActions: {
            /** @description Status name (case-insensitive), e.g. Resolved. Snoozed is refused: a macro cannot give the snooze time. */
            set_status?: string;
            /** @description Low, Medium, High or Urgent */
            set_priority?: string;
            /** @description Team id */
            assign_team?: number;
            /** @description Agent id */
            assign_user?: number;
            /** @description SLA policy id: applied to the conversation (replacing an applied one) */
            apply_sla?: number;
            /** @description Tag names to add (case-insensitive) */
            add_tags?: string[];
            /** @description Tag names to remove (case-insensitive) */
            remove_tags?: string[];
            /** @description The tags the conversation ends with; [] removes every tag. Applied before add_tags and remove_tags. */
            set_tags?: string[];
        };
        /** Macro */
        Macro: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            actions: components["schemas"]["MacroActions"];
            /**
             * @description `global`: every agent; `team`: members of `team_id`; `user`: only `user_id`
             * @enum {string}
             */
            visibility: "global" | "team" | "user";
            visible_when: ("conversation_open" | "conversation_waiting" | "conversation_resolved")[];
            message_content: string;
            /** @description Owner agent id of a `user` macro, as a string */
            user_id: string | null;
            /** @description Team id of a `team` macro, as a string */
            team_id: string | null;
            usage_count: number;
        };
        /** MacroApplyResult */
        MacroApplyResult: {
            conversation: components["schemas"]["Conversation"];
            /** @description The macro's message_content rendered for this conversation (placeholder values HTML-escaped) */
            message_content: string;
        };
        /** TagDistributionReport */
        TagDistributionReport: {
            /** @description At most 10 tags, by count (descending), then by name (case-insensitive); tags on no conversation in the window are left out */
            top_tags: {
                tag_id: number;
                tag_name: string;
                /** @description Conversations in the window carrying this tag */
                count: number;
            }[];
            /** @description Conversations in the window with at least one tag */
            tagged_conversations: number;
            /** @description Conversations in the window without any tag */
            untagged_conversations: number;
            /** @description tagged / all conversations in the window × 100, rounded to one decimal; 0 when there are none */
            tagged_percentage: number;
        };
        /** ServiceReport */
        ServiceReport: {
            from: string;
            to: string;
            /** @description The zone the dates are in (the general settings’) */
            timezone: string;
            conversations: {
                created: number;
                resolved: number;
            };
            first_response_seconds: {
                /** @description Seconds; null without any */
                median: number | null;
                /** @description Seconds; null without any */
                p90: number | null;
                count: number;
            };
            resolution_seconds: {
                /** @description Seconds; null without any */
                median: number | null;
                /** @description Seconds; null without any */
                p90: number | null;
                count: number;
            };
            sla: {
                first_response: {
                    met: number;
                    breached: number;
                };
                next_response: {
                    met: number;
                    breached: number;
                };
                resolution: {
                    met: number;
                    breached: number;
                };
            };
            csat: {
                responses: number;
                sent: number;
                average: number | null;
                distribution: {
                    1: number;
                    2: number;
                    3: number;
                    4: number;
                    5: number;
                };
            };
            by_day: {
                date: string;
                created: number;
                resolved: number;
            }[];
            by_agent: {
                agent_id: number;
                name: string;
                resolved: number;
                first_response_median_seconds: number | null;
                csat_average: number | null;
            }[];
            by_team: {
                team_id: number;
                name: string;
                created: number;
                resolved: number;
            }[];
        };
        /** OverviewCounts */
        OverviewCounts: {
            /** @description Conversations whose status is in the `open` category */
            open: number;
            /** @description Conversations whose status is in the `waiting` category (e.g. Snoozed) */
            waiting: number;
            /** @description Conversations not resolved (open or waiting) with no agent assigned */
            unassigned: number;
            /** @description Conversations not resolved that have no agent reply yet (`first_reply_at` is null) */
            awaiting_first_reply: number;
            /** @description Enabled, not deleted agents per `availability_status` */
            agents: {
                available: number;
                busy: number;
                away: number;
                offline: number;
            };
        };
        /** ConversationSearchHit */
        ConversationSearchHit: {
            id: number;
            /** Format: uuid */
            uuid: string;
            reference_number: string;
            subject: string;
            /** @description `[start, end)` offsets in UTF-16 code units (JavaScript string indexes) of the matched words in the text beside it */
            subject_highlights: [
                number,
                number
            ][];
            /** @description The conversation's first message, shortened: its title when it has no subject */
            first_message: string | null;
            /** @description Status name */
            status: string;
            inbox_id: number;
            contact: {
                id: number;
                first_name: string;
                last_name: string;
                email: string | null;
                /** @description In `first_name + " " + last_name` */
                name_highlights: [
                    number,
                    number
                ][];
                /** @description In `email` */
                email_highlights: [
                    number,
                    number
                ][];
            };
            /** @description The conversation's tags, with the matches in their names */
            tags: {
                name: string;
                /** @description `[start, end)` offsets in UTF-16 code units (JavaScript string indexes) of the matched words in the text beside it */
                highlights: [
                    number,
                    number
                ][];
            }[];
            /** Format: date-time */
            last_message_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** MessageSearchHit */
        MessageSearchHit: {
            /** Format: uuid */
            uuid: string;
            /** Format: uuid */
            conversation_uuid: string;
            /** @description The conversation's reference number */
            reference_number: string;
            /** @description The conversation's subject (hits of one conversation are grouped under it) */
            conversation_subject: string;
            /** @description The conversation's first message, shortened: its title when it has no subject */
            conversation_first_message: string | null;
            /** @description The conversation's status name */
            conversation_status: string;
            /** @enum {string} */
            type: "incoming" | "outgoing";
            /** @description A private note */
            private: boolean;
            /** @description One line of plain text around the first match (no markup; escape it before rendering as HTML); `…` marks a cut */
            snippet: string;
            /** @description `[start, end)` offsets in UTF-16 code units (JavaScript string indexes) of the matched words in the text beside it */
            highlights: [
                number,
                number
            ][];
            /** Format: date-time */
            created_at: string;
        };
        /** ContactSearchHit */
        ContactSearchHit: {
            id: number;
            first_name: string;
            last_name: string;
            email: string | null;
            phone_number: string | null;
            avatar_url: string | null;
            /** @enum {string} */
            type: "contact" | "visitor";
            /** @description In `first_name + " " + last_name` */
            name_highlights: [
                number,
                number
            ][];
            /** @description In `email` */
            email_highlights: [
                number,
                number
            ][];
            /** @description In `phone_number` */
            phone_highlights: [
                number,
                number
            ][];
        };
        /** SearchResults */
        SearchResults: {
            conversations: components["schemas"]["ConversationSearchHit"][];
            messages: components["schemas"]["MessageSearchHit"][];
            contacts: components["schemas"]["ContactSearchHit"][];
        };
        /** Webhook */
        Webhook: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            /** @description Where deliveries are POSTed */
            url: string;
            enabled: boolean;
            /** @description The events this webhook receives */
            events: ("conversation.created" | "conversation.status_changed" | "conversation.assigned" | "conversation.unassigned" | "conversation.priority_changed" | "conversation.tags_changed" | "conversation.sla_warning" | "conversation.sla_breached" | "message.created" | "message.updated" | "contact.created" | "contact.enabled_changed" | "contact.merged" | "webhook.test")[];
            /** @description Extra HTTP headers sent with every delivery */
            headers: {
                [key: string]: string;
            };
            /** @description Standard Webhooks secret: "whsec_" followed by the base64 of 24 to 64 random bytes. Stored encrypted; answered as "••••••••••" except once, when Parley generated it (creation) or rotated it. */
            secret: string;
            /** @description Why Parley disabled it (failing for a day); null when enabled, or disabled by an admin */
            disabled_reason: string | null;
            /**
             * Format: date-time
             * @description The first failed attempt since the last success; null when healthy
             */
            failing_since: string | null;
        };
        /** CreateWebhook */
        CreateWebhook: {
            /** @description Trimmed, then 1..100 characters; unique case-insensitively */
            name: string;
            /**
             * Format: http-url
             * @description Absolute http(s) URL, at most 2048 characters, without user name or password
             */
            url: string;
            /** @description The events to receive: at least one, each once. One of: conversation.created, conversation.status_changed, conversation.assigned, conversation.unassigned, conversation.priority_changed, conversation.tags_changed, conversation.sla_warning, conversation.sla_breached, message.created, message.updated, contact.created, contact.enabled_changed, contact.merged, webhook.test (`webhook.test` may be listed, but only the test endpoint sends it). */
            events: ("conversation.created" | "conversation.status_changed" | "conversation.assigned" | "conversation.unassigned" | "conversation.priority_changed" | "conversation.tags_changed" | "conversation.sla_warning" | "conversation.sla_breached" | "message.created" | "message.updated" | "contact.created" | "contact.enabled_changed" | "contact.merged" | "webhook.test")[];
            /** @default true */
            enabled: boolean;
            /** @description Extra HTTP headers sent with every delivery: at most 20; names are RFC 7230 tokens of at most 100 characters, unique case-insensitively; values at most 1000 characters of printable ASCII (trimmed). Parley's own headers cannot be set: Content-Type, Content-Length, Content-Encoding, Transfer-Encoding, Host, Connection, Keep-Alive, Upgrade, TE, Trailer, Expect, User-Agent, Proxy-*, and every webhook-* header (the signature headers). Values of headers whose name holds auth, token, key, secret, passw, cookie, signature, credential or session are answered as the mask. */
            headers?: {
                [key: string]: string;
            };
            /** @description Standard Webhooks secret: "whsec_" followed by the base64 of 24 to 64 random bytes. Stored encrypted; answered as "••••••••••" except once, when Parley generated it (creation) or rotated it. Generated when absent. */
            secret?: string;
        };
        /** WebhookCompact */
        WebhookCompact: {
            id: number;
            name: string;
        };
        /**
         * UpdateWebhook
         * @description The whole webhook, as GET answers it (read-only fields are ignored): name, url and events are required; enabled, headers and secret keep their stored value when absent.
         */
        UpdateWebhook: {
            /** @description Trimmed, then 1..100 characters; unique case-insensitively */
            name: string;
            /**
             * Format: http-url
             * @description Absolute http(s) URL, at most 2048 characters, without user name or password
             */
            url: string;
            /** @description The events to receive: at least one, each once. One of: conversation.created, conversation.status_changed, conversation.assigned, conversation.unassigned, conversation.priority_changed, conversation.tags_changed, conversation.sla_warning, conversation.sla_breached, message.created, message.updated, contact.created, contact.enabled_changed, contact.merged, webhook.test (`webhook.test` may be listed, but only the test endpoint sends it). */
            events: ("conversation.created" | "conversation.status_changed" | "conversation.assigned" | "conversation.unassigned" | "conversation.priority_changed" | "conversation.tags_changed" | "conversation.sla_warning" | "conversation.sla_breached" | "message.created" | "message.updated" | "contact.created" | "contact.enabled_changed" | "contact.merged" | "webhook.test")[];
            /** @description Absent: unchanged. Enabling clears disabled_reason and failing_since. */
            enabled?: boolean;
            /** @description Extra HTTP headers sent with every delivery: at most 20; names are RFC 7230 tokens of at most 100 characters, unique case-insensitively; values at most 1000 characters of printable ASCII (trimmed). Parley's own headers cannot be set: Content-Type, Content-Length, Content-Encoding, Transfer-Encoding, Host, Connection, Keep-Alive, Upgrade, TE, Trailer, Expect, User-Agent, Proxy-*, and every webhook-* header (the signature headers). Values of headers whose name holds auth, token, key, secret, passw, cookie, signature, credential or session are answered as the mask. Absent: unchanged; {} removes them all. A masked value sent back keeps the stored one, unless url changes (then it must be sent again). */
            headers?: {
                [key: string]: string;
            };
            /** @description Standard Webhooks secret: "whsec_" followed by the base64 of 24 to 64 random bytes. Stored encrypted; answered as "••••••••••" except once, when Parley generated it (creation) or rotated it. Absent or the mask: the stored secret is kept; a new value replaces it. */
            secret?: string;
            readonly id?: number;
            /** Format: date-time */
            readonly created_at?: string;
            /** Format: date-time */
            readonly updated_at?: string;
            /** @description Why Parley disabled it (failing for a day); null when enabled, or disabled by an admin */
            readonly disabled_reason?: string | null;
            /**
             * Format: date-time
             * @description The first failed attempt since the last success; null when healthy
             */
            readonly failing_since?: string | null;
        };
        /** WebhookDelivery */
        WebhookDelivery: {
            id: number;
            /**
             * Format: uuid
             * @description The `webhook-id` header: the same on every attempt of this delivery
             */
            uuid: string;
            webhook_id: number;
            /** @description The event sent: conversation.created, conversation.status_changed, conversation.assigned, conversation.unassigned, conversation.priority_changed, conversation.tags_changed, conversation.sla_warning, conversation.sla_breached, message.created, message.updated, contact.created, contact.enabled_changed, contact.merged, webhook.test */
            event_type: string;
            /** @description The domain event that caused it; null for webhook.test */
            event_id: number | null;
            /**
             * @description pending (not delivered yet) | succeeded (a receiver answered 2xx) | failed (the last attempt failed; the next is due at next_attempt_at) | dead (no attempt left) | refused (the address is not allowed: see WEBHOOK_ALLOW_HOSTS)
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed" | "dead" | "refused";
            /** @description Attempts made so far */
            attempts: number;
            /** @description The last attempt's HTTP status; null when no answer came */
            last_status_code: number | null;
            last_error: string | null;
            last_latency_ms: number | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** WebhookAttempt */
        WebhookAttempt: {
            /** @description 1 for the first attempt */
            attempt: number;
            /** @description Asked for by an admin (retry), not scheduled */
            manual: boolean;
            /** @enum {string} */
            outcome: "succeeded" | "failed" | "refused";
            status_code: number | null;
            latency_ms: number;
            error: string | null;
            /** @description The start of the receiver's answer, at most 2 KB */
            response_snippet: string | null;
            /** Format: date-time */
            started_at: string;
        };
        /** WebhookDeliveryDetail */
        WebhookDeliveryDetail: {
            id: number;
            /**
             * Format: uuid
             * @description The `webhook-id` header: the same on every attempt of this delivery
             */
            uuid: string;
            webhook_id: number;
            /** @description The event sent: conversation.created, conversation.status_changed, conversation.assigned, conversation.unassigned, conversation.priority_changed, conversation.tags_changed, conversation.sla_warning, conversation.sla_breached, message.created, message.updated, contact.created, contact.enabled_changed, contact.merged, webhook.test */
            event_type: string;
            /** @description The domain event that caused it; null for webhook.test */
            event_id: number | null;
            /**
             * @description pending (not delivered yet) | succeeded (a receiver answered 2xx) | failed (the last attempt failed; the next is due at next_attempt_at) | dead (no attempt left) | refused (the address is not allowed: see WEBHOOK_ALLOW_HOSTS)
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed" | "dead" | "refused";
            /** @description Attempts made so far */
            attempts: number;
            /** @description The last attempt's HTTP status; null when no answer came */
            last_status_code: number | null;
            last_error: string | null;
            last_latency_ms: number | null;
            /** Format: date-time */
            next_attempt_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The exact body sent on every attempt; null before the first attempt */
            request_body: string | null;
            /** @description Every attempt, oldest first */
            attempts_log: components["schemas"]["WebhookAttempt"][];
        };
        /** WidgetLauncherSettings */
        WidgetLauncherSettings: {
            launcher: {
                spacing: {
                    side: number;
                    bottom: number;
                };
                logo_url: string;
                /** @enum {string} */
                position: "left" | "right";
                color: string;
            };
            colors: {
                primary: string;
            };
        };
        /**
         * WidgetSettings
         * @description The inbox configuration without its secret, trusted domains, blocked addresses and session lifetime; the pre-chat form lists only enabled fields when it is enabled.
         */
        WidgetSettings: {
            /** @default Support */
            brand_name: string;
            website_url?: string;
            logo_url?: string;
            /** @default false */
            dark_mode: boolean;
            /** @default true */
            show_powered_by: boolean;
            /** @default en */
            language: string;
            /** @default {} */
            colors: {
                /**
                 * @description #RGB or #RRGGBB
                 * @default #2563eb
                 */
                primary: string;
            };
            launcher?: {
                /** @enum {string} */
                position?: "left" | "right";
                spacing?: {
                    side?: number;
                    bottom?: number;
                };
                logo_url?: string;
                color?: string;
            };
            /** @default Hi there! How can we help? */
            greeting_message: string;
            /** @default  */
            introduction_message: string;
            /** @default  */
            chat_introduction: string;
            /** @default  */
            chat_reply_expectation_message: string;
            /** @default false */
            direct_to_conversation: boolean;
            /** @default {} */
            notice_banner: {
                /** @default false */
                enabled: boolean;
                /** @default  */
                text: string;
            };
            /** @default false */
            show_office_hours_in_chat: boolean;
            /** @default false */
            show_office_hours_after_assignment: boolean;
            /** @default We're away right now. Leave us a message and we'll answer as soon as we're back. */
            away_message: string;
            users?: components["schemas"]["LivechatPermissions"];
            visitors?: components["schemas"]["LivechatPermissions"];
            /** @default {} */
            prechat_form: {
                /** @default false */
                enabled: boolean;
                /** @default  */
                title: string;
                /**
                 * @default [
                 *       {
                 *         "key": "name",
                 *         "type": "text",
                 *         "label": "Name",
                 *         "placeholder": "",
                 *         "required": true,
                 *         "enabled": true,
                 *         "order": 1,
                 *         "is_default": true,
                 *         "custom_attribute_id": null
                 *       },
                 *       {
                 *         "key": "email",
                 *         "type": "email",
                 *         "label": "Email",
                 *         "placeholder": "",
                 *         "required": true,
                 *         "enabled": true,
                 *         "order": 2,
                 *         "is_default": true,
                 *         "custom_attribute_id": null
                 *       },
                 *       {
                 *         "key": "phone",
                 *         "type": "phone",
                 *         "label": "Phone",
                 *         "placeholder": "",
                 *         "required": false,
                 *         "enabled": false,
                 *         "order": 3,
                 *         "is_default": true,
                 *         "custom_attribute_id": null
                 *       }
                 *     ]
                 */
                fields: components["schemas"]["PrechatField"][];
            };
            /** @default {} */
            file_upload: {
                /** @default true */
                enabled: boolean;
                /** @default 10 */
                max_size_mb: number;
                /**
                 * @default [
                 *       "jpg",
                 *       "jpeg",
                 *       "png",
                 *       "gif",
                 *       "webp",
                 *       "pdf",
                 *       "txt",
                 *       "csv",
                 *       "log",
                 *       "doc",
                 *       "docx",
                 *       "xls",
                 *       "xlsx",
                 *       "ppt",
                 *       "pptx",
                 *       "zip",
                 *       "mp3",
                 *       "mp4",
                 *       "mov"
                 *     ]
                 */
                allowed_extensions: string[];
            };
            /** @description IANA time zone; defaults to the server time zone */
            timezone?: string;
            /** @description The business hours in effect (the inbox's, else the installation's default), only when `show_office_hours_in_chat`; else null */
            business_hours: components["schemas"]["BusinessHours"][] | null;
            /** @description The business hours in effect: the conversation's team's, else the inbox's, else the installation's default; null without any */
            business_hours_id: number | null;
            /** @description Minutes east of UTC of the business hours' time zone now (DST-aware); null without business hours */
            working_hours_utc_offset: number | null;
            /** @description Whether the business hours in effect are open now (true without business hours) */
            is_open: boolean;
            /**
             * Format: date-time
             * @description When closed: the next opening; null when open or none within ten years
             */
            next_open_at: string | null;
        };
        /** WidgetUser */
        WidgetUser: {
            user_id: number;
            is_visitor: boolean;
            first_name: string;
            last_name: string;
        };
        /** WidgetSession */
        WidgetSession: {
            session_token: string;
            user: components["schemas"]["WidgetUser"];
        };
        /** ChatConversation */
        ChatConversation: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            uuid: string;
            /** @description Status name: Open, Snoozed, Resolved, Closed or a custom one */
            status: string;
            last_message: {
                /** @description Plain text of the last public message */
                content: string;
                /** Format: date-time */
                created_at: string;
                author: {
                    id: number | null;
                    first_name: string;
                    last_name: string;
                    avatar_url: string | null;
                    /** @enum {string} */
                    availability_status: "available" | "busy" | "away" | "offline";
                    /**
                     * @description Who wrote it: agent or contact
                     * @enum {string}
                     */
                    type: "agent" | "contact";
                    /** Format: date-time */
                    active_at: string | null;
                };
            } | null;
            /** @description Agent replies after the contact last read the conversation, counted up to 10 */
            unread_message_count: number;
            assignee: {
                id: number;
                first_name: string;
                last_name: string;
                avatar_url: string | null;
                /** @enum {string} */
                availability_status: "available" | "busy" | "away" | "offline";
                /** @enum {string} */
                type: "agent";
                /** Format: date-time */
                active_at: string | null;
            } | null;
        };
        /** ChatMessageAuthor */
        ChatMessageAuthor: {
            id: number | null;
            first_name: string;
            last_name: string;
            /** @description Never sent to the widget */
            email: null;
            avatar_url: string | null;
            /** @enum {string} */
            availability_status: "available" | "busy" | "away" | "offline";
            /** @enum {string} */
            type: "agent" | "contact" | "visitor";
            /** Format: date-time */
            last_active_at: string | null;
        };
        /** ChatAttachment */
        ChatAttachment: {
            name: string;
            size: number;
            content: null;
            content_id: string | null;
            content_type: string;
            /** @enum {string} */
            disposition: "attachment" | "inline";
            /** Format: uuid */
            uuid: string;
            /** @description Signed download URL; works without credentials until it expires */
            url: string;
            /** @description The image itself for images recognised by their bytes; empty otherwise */
            thumbnail_url: string;
        };
        /** ChatMessage */
        ChatMessage: {
            /** Format: uuid */
            uuid: string;
            /** @enum {string} */
            status: "received" | "pending" | "sent" | "failed";
            /** Format: uuid */
            conversation_uuid: string;
            /** Format: date-time */
            created_at: string;
            /** @description HTML for agent replies (sanitised), plain text for messages from the widget */
            content: string;
            text_content: string;
            author: components["schemas"]["ChatMessageAuthor"];
            attachments: components["schemas"]["ChatAttachment"][];
            /** @description Only what the widget shows: `away` and `away_until` on the away message, `csat_uuid` on a CSAT survey; the rest of a message's meta stays private */
            meta: {
                /** @description The away message sent outside business hours */
                away?: boolean;
                /**
                 * Format: date-time
                 * @description The opening it announced
                 */
                away_until?: string | null;
                /**
                 * Format: uuid
                 * @description On a CSAT survey message: the survey to answer (POST /api/v1/csat/{uuid}/response)
                 */
                csat_uuid?: string;
            };
        };
        /** WidgetInitResult */
        WidgetInitResult: {
            conversation: components["schemas"]["ChatConversation"];
            /** @description Newest first */
            messages: components["schemas"]["ChatMessage"][];
            /** @description The business hours in effect: the conversation's team's, else the inbox's, else the installation's default; null without any */
            business_hours_id: number | null;
            /** @description Minutes east of UTC of the business hours' time zone now (DST-aware); null without business hours */
            working_hours_utc_offset: number | null;
            /** @description Only for a new visitor: keep it and send it as a bearer token */
            session_token?: string;
            user?: components["schemas"]["WidgetUser"];
        };
        /** WidgetConversation */
        WidgetConversation: {
            conversation: components["schemas"]["ChatConversation"];
            /** @description Newest first, at most 400 */
            messages: components["schemas"]["ChatMessage"][];
            /** @description The business hours in effect: the conversation's team's, else the inbox's, else the installation's default; null without any */
            business_hours_id: number | null;
            /** @description Minutes east of UTC of the business hours' time zone now (DST-aware); null without business hours */
            working_hours_utc_offset: number | null;
        };
        /**
         * WidgetPreview
         * @description What `GET /widget/chat/settings` and `…/settings/launcher` would answer with these settings saved
         */
        WidgetPreview: {
            settings: components["schemas"]["WidgetSettings"];
            launcher: components["schemas"]["WidgetLauncherSettings"];
        };
        /** WidgetOriginCheck */
        WidgetOriginCheck: {
            /** @description The origin checked (scheme, host and port of `url`) */
            origin: string;
            /** @description Whether a page of that origin may embed the chat */
            allowed: boolean;
            /** @description True when the list is empty: every site may embed the chat */
            any_site: boolean;
        };
        /**
         * OidcConfigurer
         * @description The agent who last set provider_url, client_id or client_secret. The provider signs in only agents whose permissions this agent holds (all of them for an Admin); null or disabled: nobody. Send the client secret again to become it.
         */
        OidcConfigurer: {
            id: number;
            name: string;
            /** @description False when that agent is disabled or deleted: the provider then signs nobody in. */
            enabled: boolean;
        };
        /** OidcProvider */
        OidcProvider: {
            id: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            name: string;
            enabled: boolean;
            client_id: string;
            /** @description Always "••••••••••": the secret is stored encrypted and never answered. */
            client_secret: string;
            /** @description A label for the sign-in page: Google, Microsoft, Keycloak, Authentik, Custom… */
            provider: string;
            /** @description The issuer URL; discovery reads `{provider_url}/.well-known/openid-configuration`. */
            provider_url: string;
            /** @description Register this at the provider: `{BASE_URL}/api/v1/oidc/{id}/finish`. */
            redirect_uri: string;
            /** @description Absolute http(s) URL of a logo for the sign-in button, or empty. */
            logo_url: string;
            /** @description Create an agent on the first sign-in of a verified email no agent has. */
            auto_provision: boolean;
            /** @description The role such an agent gets. */
            provision_role_id: number | null;
            configured_by: components["schemas"]["OidcConfigurer"] | null;
        };
        /** OidcProviderBody */
        OidcProviderBody: {
            /** @description Trimmed, 1..100 characters; unique case-insensitively */
            name: string;
            /** @default Custom */
            provider: string;
            /**
             * Format: http-url
             * @description The issuer URL, exactly as the provider states it (`issuer` in its discovery document). https, or http for a loopback or private-network host only.
             */
            provider_url: string;
            client_id: string;
            /** @description Required on creation. On update, leave it out or send "••••••••••" to keep the stored secret. */
            client_secret?: string;
            /**
             * @description Absolute http(s) URL, or empty
             * @default
             */
            logo_url: string | "";
            /** @default true */
            enabled: boolean;
            /** @default false */
            auto_provision: boolean;
            /** @description An existing role id; required when auto_provision is true */
            provision_role_id?: number | null;
        };
        /** EnabledOidcProvider */
        EnabledOidcProvider: {
            id: number;
            name: string;
            provider: string;
            logo_url: string;
            /** @description Send the browser here (add `?next=/path` to come back to a page) */
            login_url: string;
        };
        /** UpdateOidcProvider */
        UpdateOidcProvider: {
            /** @description Trimmed, 1..100 characters; unique case-insensitively */
            name: string;
            /** @default Custom */
            provider: string;
            /**
             * Format: http-url
             * @description The issuer URL, exactly as the provider states it (`issuer` in its discovery document). https, or http for a loopback or private-network host only.
             */
            provider_url: string;
            client_id: string;
            /** @description Required on creation. On update, leave it out or send "••••••••••" to keep the stored secret. */
            client_secret?: string;
            /**
             * @description Absolute http(s) URL, or empty
             * @default
             */
            logo_url: string | "";
            /** @default true */
            enabled: boolean;
            /** @default false */
            auto_provision: boolean;
            /** @description An existing role id; required when auto_provision is true */
            provision_role_id?: number | null;
            readonly id?: number;
            /** Format: date-time */
            readonly created_at?: string;
            /** Format: date-time */
            readonly updated_at?: string;
            /** @description Register this at the provider: `{BASE_URL}/api/v1/oidc/{id}/finish`. */
            readonly redirect_uri?: string;
            readonly configured_by?: components["schemas"]["OidcConfigurer"] | null;
        };
        /** OidcDiscoveryReport */
        OidcDiscoveryReport: {
            issuer: string;
            authorization_endpoint: string;
            token_endpoint: string;
            userinfo_endpoint: string | null;
            jwks_uri: string | null;
            scopes_supported: string[] | null;
            code_challenge_methods_supported: string[] | null;
            /** @description How Parley will authenticate to the token endpoint */
            token_endpoint_auth_method: string;
        };
        /** PageVisit */
        PageVisit: {
            url: string;
            title: string;
            /** Format: date-time */
            visited_at: string;
        };
        /** Viewer */
        Viewer: {
            agent_id: number;
            name: string;
            avatar_url: string | null;
            /** @description writing a public reply (its typing frames say so, for at most 8 s after the last) */
            replying: boolean;
        };
        /** AiProvider */
        AiProvider: {
            /** @enum {string} */
            provider: "openai";
            base_url: string;
            model: string;
            /** @description "••••••••••" when a key is stored, "" when none */
            api_key: string;
            has_api_key: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** AiStatus */
        AiStatus: {
            /** @description True when an AI provider is configured */
            enabled: boolean;
        };
        /** AiPrompt */
        AiPrompt: {
            id: number;
            key: string;
            title: string;
            /** @description The instruction given to the model, after a fixed preamble */
            content: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** AuditEntry */
        AuditEntry: {
            id: number;
            /** Format: date-time */
            created_at: string;
            actor: {
                /**
                 * @description `agent` (a session), `api_key` (an agent’s API credentials), `system` (Parley itself), `automation` (a rule)
                 * @enum {string}
                 */
                type: "agent" | "api_key" | "system" | "automation";
                /** @description The agent (for `api_key`, the key’s owner) or the automation rule; null for `system` */
                id: number | null;
                /** @description The name the actor had when the entry was written */
                name: string;
            };
            /** @description Client address of the request (null outside a request) */
            ip: string | null;
            user_agent: string | null;
            /** @description The `X-Request-Id` of the request, to find it in the logs */
            request_id: string | null;
            /** @description One of `GET /audit-log/actions`, e.g. `role.updated` */
            action: string;
            resource: {
                /** @description e.g. `role`, `agent`, `settings` */
                type: string;
                /** @description The resource’s id, as text; null for singletons such as the settings */
                id: string | null;
                /** @description The name the resource had when the entry was written (may be empty) */
                name: string;
            };
            /** @description `{"<field>": [before, after]}`; before is null on creation, after null on deletion. Every secret is masked as `[redacted]`. */
            changes: {
                [key: string]: unknown[];
            };
        };
        /** AuditCatalogue */
        AuditCatalogue: {
            /** @description Every action an entry can have (the `action` filter’s values) */
            actions: string[];
            /** @description The resource types the log holds entries about, sorted */
            resource_types: string[];
        };
        /** Notification */
        Notification: {
            id: number;
            /** @enum {string} */
            type: "assigned" | "team_assigned" | "mentioned" | "reply" | "sla_warning" | "sla_breached";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            read_at: string | null;
            /** Format: uuid */
            conversation_uuid: string;
            /** Format: uuid */
            message_uuid: string | null;
            actor: {
                /** @enum {string} */
                type: "agent" | "contact" | "automation" | "system";
                id: number | null;
                name: string;
            } | null;
            title: string;
            excerpt: string;
        };
        /** NotificationSettings */
        NotificationSettings: {
            types: {
                assigned: {
                    in_app: boolean;
                    email: boolean;
                    push: boolean;
                };
                team_assigned: {
                    in_app: boolean;
                    email: boolean;
                    push: boolean;
                };
                mentioned: {
                    in_app: boolean;
                    email: boolean;
                    push: boolean;
                };
                reply: {
                    in_app: boolean;
                    email: boolean;
                    push: boolean;
                };
                sla_warning: {
                    in_app: boolean;
                    email: boolean;
                    push: boolean;
                };
                sla_breached: {
                    in_app: boolean;
                    email: boolean;
                    push: boolean;
                };
            };
            email_digest: boolean;
            sound: boolean;
            title_count: boolean;
        };
        /** NotificationSettingsChange */
        NotificationSettingsChange: {
            types?: {
                assigned?: {
                    in_app?: boolean;
                    email?: boolean;
                    push?: boolean;
                };
                team_assigned?: {
                    in_app?: boolean;
                    email?: boolean;
                    push?: boolean;
                };
                mentioned?: {
                    in_app?: boolean;
                    email?: boolean;
                    push?: boolean;
                };
                reply?: {
                    in_app?: boolean;
                    email?: boolean;
                    push?: boolean;
                };
                sla_warning?: {
                    in_app?: boolean;
                    email?: boolean;
                    push?: boolean;
                };
                sla_breached?: {
                    in_app?: boolean;
                    email?: boolean;
                    push?: boolean;
                };
            };
            email_digest?: boolean;
            sound?: boolean;
            title_count?: boolean;
        };
        /** VapidPublicKey */
        VapidPublicKey: {
            /** @description The application server's P-256 public key (65 bytes, uncompressed), base64url: `applicationServerKey` of PushManager.subscribe */
            public_key: string;
        };
        /** PushSubscription */
        PushSubscription: {
            id: number;
            /** @description The push service's host (the endpoint itself is never answered) */
            endpoint_host: string;
            /** @description SHA-256 of the endpoint, hex: lets a browser tell its own subscription among the agent's */
            endpoint_sha256: string;
            /** @description Read from the User-Agent of the request that subscribed */
            device: {
                browser: string | null;
                os: string | null;
            };
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            last_success_at: string | null;
        };
        /** CreatePushSubscription */
        CreatePushSubscription: {
            /** @description The push service's URL for this browser (PushSubscription.endpoint): https, and not a private address */
            endpoint: string;
            keys: {
                /** @description The browser's P-256 public key (65 bytes, uncompressed), base64url */
                p256dh: string;
                /** @description The authentication secret (16 bytes), base64url */
                auth: string;
            };
            /** @description Ignored (PushSubscription.toJSON() includes it) */
            expirationTime?: number | null;
        };
        /** PublicCsatSurvey */
        PublicCsatSurvey: {
            /** Format: uuid */
            uuid: string;
            conversation_subject: string;
            inbox_name: string;
            brand: {
                /** @description The live-chat inbox's brand name, else the inbox name */
                name: string;
                logo_url: string | null;
                /** @description #RGB or #RRGGBB */
                primary_color: string | null;
            };
            rating: number | null;
            feedback: string;
            /** Format: date-time */
            submitted_at: string | null;
            /** Format: date-time */
            editable_until: string;
        };
        /** WebhookConversationCreated */
        WebhookConversationCreated: {
            /** @constant */
            type: "conversation.created";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `conversation`: the record `GET /api/v1/conversations/{uuid}` answers, as it was when the body was built (absent when the conversation no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                inbox_id: number;
                contact_id: number;
                /** @enum {string} */
                initiator: "agent" | "contact";
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookConversationStatusChanged */
        WebhookConversationStatusChanged: {
            /** @constant */
            type: "conversation.status_changed";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `conversation`: the record `GET /api/v1/conversations/{uuid}` answers, as it was when the body was built (absent when the conversation no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                previous_status: string;
                status: string;
                /** @enum {string} */
                status_category: "open" | "waiting" | "resolved";
                /** Format: date-time */
                snoozed_until: string | null;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookConversationAssigned */
        WebhookConversationAssigned: {
            /** @constant */
            type: "conversation.assigned";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                /** @constant */
                assignee_type: "user";
                assignee_id: number;
                previous_assignee_id: number | null;
                team_id: number | null;
                auto: boolean;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            } | {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                /** @constant */
                assignee_type: "team";
                team_id: number;
                previous_team_id: number | null;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookConversationUnassigned */
        WebhookConversationUnassigned: {
            /** @constant */
            type: "conversation.unassigned";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                /** @constant */
                assignee_type: "user";
                previous_assignee_id: number;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            } | {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                /** @constant */
                assignee_type: "team";
                previous_team_id: number;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookConversationPriorityChanged */
        WebhookConversationPriorityChanged: {
            /** @constant */
            type: "conversation.priority_changed";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `conversation`: the record `GET /api/v1/conversations/{uuid}` answers, as it was when the body was built (absent when the conversation no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                previous_priority: string | null;
                priority: string;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookConversationTagsChanged */
        WebhookConversationTagsChanged: {
            /** @constant */
            type: "conversation.tags_changed";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `conversation`: the record `GET /api/v1/conversations/{uuid}` answers, as it was when the body was built (absent when the conversation no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                added: string[];
                removed: string[];
                tags: string[];
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookConversationSlaWarning */
        WebhookConversationSlaWarning: {
            /** @constant */
            type: "conversation.sla_warning";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `conversation`: the record `GET /api/v1/conversations/{uuid}` answers, as it was when the body was built (absent when the conversation no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                applied_sla_id: number;
                /** @enum {string} */
                metric: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                deadline_at: string;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookConversationSlaBreached */
        WebhookConversationSlaBreached: {
            /** @constant */
            type: "conversation.sla_breached";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `conversation`: the record `GET /api/v1/conversations/{uuid}` answers, as it was when the body was built (absent when the conversation no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                actor_id: number | null;
                applied_sla_id: number;
                /** @enum {string} */
                metric: "first_response" | "next_response" | "resolution";
                /** Format: date-time */
                deadline_at: string;
                /** Conversation */
                conversation?: {
                    id: number;
                    /** Format: date-time */
                    created_at: string;
                    /** Format: date-time */
                    updated_at: string;
                    /** Format: uuid */
                    uuid: string;
                    reference_number: string;
                    /** Format: date-time */
                    waiting_since: string | null;
                    /** Format: date-time */
                    assignee_last_seen_at: string | null;
                    inbox_id: number;
                    /**
                     * @description email | livechat; cannot change after creation
                     * @enum {string}
                     */
                    inbox_channel: "email" | "livechat";
                    inbox_name: string;
                    sla_policy_id: number | null;
                    /** Format: date-time */
                    first_reply_at: string | null;
                    /** Format: date-time */
                    last_reply_at: string | null;
                    /** Format: date-time */
                    resolved_at: string | null;
                    subject: string;
                    last_message: string | null;
                    /** @description The first public message's text, shortened as last_message: what a conversation without subject is titled by */
                    first_message: string | null;
                    /** Format: date-time */
                    last_message_at: string | null;
                    /** @enum {string|null} */
                    last_message_sender: "agent" | "contact" | null;
                    /** Format: date-time */
                    next_sla_deadline_at: string | null;
                    priority_id: number | null;
                    /** @description Public messages from the contact newer than the caller's last-seen mark */
                    unread_message_count: number;
                    status: string;
                    priority: string | null;
                    /** Format: date-time */
                    first_response_deadline_at: string | null;
                    /** Format: date-time */
                    resolution_deadline_at: string | null;
                    applied_sla_id: number | null;
                    /** Format: date-time */
                    next_response_deadline_at: string | null;
                    /** Format: date-time */
                    next_response_met_at: string | null;
                    assigned_user_id: number | null;
                    assigned_team_id: number | null;
                    tags: string[];
                    /**
                     * Contact
                     * @description The Agent record, plus the contact-only fields.
                     */
                    contact: {
                        id: number;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                        first_name: string;
                        last_name: string;
                        /** @description Email address */
                        email: string | null;
                        /**
                         * @description `agent` for agents; `contact` or `visitor` for contacts
                         * @enum {string}
                         */
                        type: "agent" | "contact" | "visitor";
                        /** @enum {string} */
                        availability_status: "available" | "busy" | "away" | "offline";
                        phone_number_country_code: string | null;
                        phone_number: string | null;
                        avatar_url: string | null;
                        enabled: boolean;
                        /** Format: date-time */
                        last_active_at: string | null;
                        /** Format: date-time */
                        last_login_at: string | null;
                        roles: string[];
                        permissions: string[];
                        custom_attributes: {
                            [key: string]: unknown;
                        };
                        teams: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                        api_key: string | null;
                        /** Format: date-time */
                        api_key_last_used_at: string | null;
                        /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                        load_remote_images: boolean;
                    };
                    /** @enum {string} */
                    status_category: "open" | "waiting" | "resolved";
                    /** Format: date-time */
                    snoozed_until: string | null;
                    custom_attributes: {
                        [key: string]: unknown;
                    };
                    meta: {
                        [key: string]: unknown;
                    };
                    /** @description The CSAT survey sent when the conversation was first resolved; null when none was */
                    csat: components["schemas"]["CsatSurvey"] | null;
                };
            };
        };
        /** WebhookMessageCreated */
        WebhookMessageCreated: {
            /** @constant */
            type: "message.created";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `message`: the record `GET …/messages/{uuid}` answers, with its attachments, as it was when the body was built (absent when the message no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                message_id: number;
                /** Format: uuid */
                message_uuid: string;
                /** @enum {string} */
                type: "incoming" | "outgoing";
                private: boolean;
                sender_id: number | null;
                /** @enum {string} */
                sender_type: "agent" | "contact";
                message?: components["schemas"]["Message"];
            };
        };
        /** WebhookMessageUpdated */
        WebhookMessageUpdated: {
            /** @constant */
            type: "message.updated";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            /** @description The event payload, plus `message`: the record `GET …/messages/{uuid}` answers, with its attachments, as it was when the body was built (absent when the message no longer exists). */
            data: {
                conversation_id: number;
                /** Format: uuid */
                conversation_uuid: string;
                message_id: number;
                /** Format: uuid */
                message_uuid: string;
                /** @enum {string} */
                status: "received" | "pending" | "sent" | "failed";
                message?: components["schemas"]["Message"];
            };
        };
        /** WebhookContactCreated */
        WebhookContactCreated: {
            /** @constant */
            type: "contact.created";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            data: {
                id: number;
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
                first_name: string;
                last_name: string;
                email: string | null;
                /** @enum {string} */
                type: "contact" | "visitor";
                /** @enum {string} */
                availability_status: "available" | "busy" | "away" | "offline";
                phone_number_country_code: string | null;
                phone_number: string | null;
                avatar_url: string | null;
                enabled: boolean;
                /** Format: date-time */
                last_active_at: string | null;
                /** Format: date-time */
                last_login_at: string | null;
                custom_attributes: {
                    [key: string]: unknown;
                };
                roles: string[];
                permissions: string[];
                teams: {
                    id: number;
                    name: string;
                    emoji: string;
                }[];
                api_key: null;
                api_key_last_used_at: null;
                external_user_id: string | null;
                load_remote_images: boolean;
            };
        };
        /** WebhookContactEnabledChanged */
        WebhookContactEnabledChanged: {
            /** @constant */
            type: "contact.enabled_changed";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            data: {
                contact_id: number;
                enabled: boolean;
            };
        };
        /** WebhookContactMerged */
        WebhookContactMerged: {
            /** @constant */
            type: "contact.merged";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            data: {
                contact_id: number;
                merged_contact_id: number;
                conversation_ids: number[];
            };
        };
        /** WebhookWebhookTest */
        WebhookWebhookTest: {
            /** @constant */
            type: "webhook.test";
            /**
             * Format: date-time
             * @description When the event happened (RFC 3339), the same on every attempt
             */
            timestamp: string;
            data: {
                webhook_id: number;
                name: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["MyAgent"] | components["schemas"]["MfaChallenge"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createMfa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The challenge POST /auth/login answered */
                    challenge: string;
                    /** @description The 6-digit code of the authenticator app, or an unused recovery code */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["MyAgent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAgentMeSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AgentSession"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAgentMeSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            /** @description How many sessions were ended */
                            ended: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAgentMeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A session’s `id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["SetupState"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The one-time setup token printed in the server log */
                    token: string;
                    /** Format: email */
                    email: string;
                    /** @description At least 10 characters */
                    password: string;
                    first_name: string;
                    last_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Agent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: {
                page?: number;
                page_size?: number;
                /** @description Matches name or email */
                q?: string;
                order_by?: "created_at" | "updated_at" | "first_name" | "email";
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["Agent"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    first_name: string;
                    last_name?: string;
                    /** Format: email */
                    email: string;
                    /** @description Role names */
                    roles: string[];
                    /** @description Team ids */
                    teams?: number[];
                    /** @description At least 10 characters */
                    password?: string;
                    enabled?: boolean;
                    phone_number?: string | null;
                    phone_number_country_code?: string | null;
                    /**
                     * Format: http-url
                     * @description Absolute http(s) URL of the picture; null for none
                     */
                    avatar_url?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Agent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAgentsCompact: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            id: number;
                            first_name: string;
                            last_name: string;
                            email: string | null;
                            avatar_url: string | null;
                            /** @enum {string} */
                            availability_status: "available" | "busy" | "away" | "offline";
                            enabled: boolean;
                        }[];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAgentMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["MyAgent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAgentMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    first_name?: string;
                    last_name?: string;
                    phone_number?: string | null;
                    phone_number_country_code?: string | null;
                    /**
                     * Format: http-url
                     * @description Absolute http(s) URL of the picture; null for none
                     */
                    avatar_url?: string | null;
                    current_password?: string;
                    /** @description At least 10 characters */
                    new_password?: string;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                    /** @description Email address */
                    readonly email?: string | null;
                    /**
                     * @description `agent` for agents; `contact` or `visitor` for contacts
                     * @enum {string}
                     */
                    readonly type?: "agent" | "contact" | "visitor";
                    /** @enum {string} */
                    readonly availability_status?: "available" | "busy" | "away" | "offline";
                    readonly enabled?: boolean;
                    /** Format: date-time */
                    readonly last_active_at?: string | null;
                    /** Format: date-time */
                    readonly last_login_at?: string | null;
                    readonly roles?: string[];
                    readonly permissions?: string[];
                    readonly custom_attributes?: {
                        [key: string]: unknown;
                    };
                    readonly teams?: {
                        id: number;
                        name: string;
                        emoji: string;
                    }[];
                    readonly api_key?: string | null;
                    /** Format: date-time */
                    readonly api_key_last_used_at?: string | null;
                    /** @description Two-factor sign-in (TOTP) is on */
                    readonly two_factor_enabled?: boolean;
                    /** @description This password session is held at enrolment: a role requires two-factor sign-in, which the agent has not set up. Until it does, every call but GET/PUT /agents/me, /agents/me/2fa/* and /auth/logout answers 403 (docs/api.md, "Two-factor sign-in"). */
                    readonly mfa_setup_required?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["MyAgent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAgentMeAvailability: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    status: "available" | "busy" | "away" | "offline";
                    /**
                     * @default user
                     * @enum {string}
                     */
                    source?: "user" | "idle";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Agent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgentMeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            api_key: string;
                            api_secret: string;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAgentMeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Agent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    first_name?: string;
                    last_name?: string;
                    /** Format: email */
                    email?: string;
                    roles?: string[];
                    teams?: number[];
                    /** @description At least 10 characters */
                    password?: string;
                    enabled?: boolean;
                    /** @enum {string} */
                    availability_status?: "available" | "busy" | "away" | "offline";
                    phone_number?: string | null;
                    phone_number_country_code?: string | null;
                    /**
                     * Format: http-url
                     * @description Absolute http(s) URL of the picture; null for none
                     */
                    avatar_url?: string | null;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                    /**
                     * @description `agent` for agents; `contact` or `visitor` for contacts
                     * @enum {string}
                     */
                    readonly type?: "agent" | "contact" | "visitor";
                    /** Format: date-time */
                    readonly last_active_at?: string | null;
                    /** Format: date-time */
                    readonly last_login_at?: string | null;
                    readonly permissions?: string[];
                    readonly custom_attributes?: {
                        [key: string]: unknown;
                    };
                    readonly api_key?: string | null;
                    /** Format: date-time */
                    readonly api_key_last_used_at?: string | null;
                    /** @description Two-factor sign-in (TOTP) is on */
                    readonly two_factor_enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Agent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgentApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            api_key: string;
                            api_secret: string;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAgentApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: trimmed-email
                     * @description The address of the account
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPasswordResetConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The `token` of the mailed link (invitation or password reset) */
                    token: string;
                    /** @description The new password: at least 10 characters */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgentInvite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            agent_id: number;
                            /** Format: date-time */
                            expires_at: string;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSystemMailStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            /** @description SMTP_URL and MAIL_FROM are both set: invitations and password resets are mailed. */
                            configured: boolean;
                            /** @description The variables still to set. */
                            missing: ("SMTP_URL" | "MAIL_FROM")[];
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgentMe2faSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            /** @description The TOTP secret, base32, for manual entry in an authenticator app; shown only here */
                            secret: string;
                            /** @description The `otpauth://totp/…` URL (for a QR code) carrying the same secret */
                            otpauth_url: string;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgentMe2faEnable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The 6-digit code of the authenticator app, or an unused recovery code */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            /** @description Ten single-use codes for signing in without the app; shown only here (stored hashed) */
                            recovery_codes: string[];
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgentMe2faDisable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The current password; required unless the agent has none (it signs in only by single sign-on) */
                    password?: string;
                    /** @description The 6-digit code of the authenticator app, or an unused recovery code */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAgent2fa: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Agent"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPermissions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: string[];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRoles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Role"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createRole: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    description?: string;
                    /** @description Permission identifiers, resource:action, from GET /api/v1/permissions */
                    permissions: string[];
                    /** @description Agents holding the role must use two-factor sign-in: one without it who signs in with a password may only set it up (default false) */
                    require_2fa?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Role"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Role"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    description?: string;
                    /** @description Permission identifiers, resource:action, from GET /api/v1/permissions */
                    permissions?: string[];
                    /** @description Agents holding the role must use two-factor sign-in: one without it who signs in with a password may only set it up (default false) */
                    require_2fa?: boolean;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                    /** @description Admin and Agent are built in: they cannot be deleted or renamed */
                    readonly is_builtin?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Role"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTeams: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Team"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createTeam: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    emoji?: string;
                    /** @enum {string} */
                    conversation_assignment_type?: "round_robin" | "manual";
                    /** @description IANA time zone, e.g. Europe/Paris */
                    timezone?: string;
                    business_hours_id?: number | null;
                    sla_policy_id?: number | null;
                    /** @description 0 = no cap */
                    max_auto_assigned_conversations?: number;
                    /** @description Agent ids */
                    members?: number[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Team"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTeamsCompact: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            id: number;
                            name: string;
                            emoji: string;
                        }[];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Team"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    emoji?: string;
                    /** @enum {string} */
                    conversation_assignment_type?: "round_robin" | "manual";
                    /** @description IANA time zone, e.g. Europe/Paris */
                    timezone?: string;
                    business_hours_id?: number | null;
                    sla_policy_id?: number | null;
                    /** @description 0 = no cap */
                    max_auto_assigned_conversations?: number;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Team"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTeamMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            id: number;
                            first_name: string;
                            last_name: string;
                            email: string | null;
                            avatar_url: string | null;
                            /** @enum {string} */
                            availability_status: "available" | "busy" | "away" | "offline";
                            enabled: boolean;
                        }[];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateTeamMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Agent ids; replaces the member list */
                    user_ids: number[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            id: number;
                            first_name: string;
                            last_name: string;
                            email: string | null;
                            avatar_url: string | null;
                            /** @enum {string} */
                            availability_status: "available" | "busy" | "away" | "offline";
                            enabled: boolean;
                        }[];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createTeamMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    user_id: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            id: number;
                            first_name: string;
                            last_name: string;
                            email: string | null;
                            avatar_url: string | null;
                            /** @enum {string} */
                            availability_status: "available" | "busy" | "away" | "offline";
                            enabled: boolean;
                        }[];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteTeamMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                user_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Tag"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createTag: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed of surrounding whitespace, then 1..100 characters; unique case-insensitively */
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Tag"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed of surrounding whitespace, then 1..100 characters; unique case-insensitively */
                    name: string;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Tag"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ConversationStatus"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed of surrounding whitespace, then 1..50 characters; unique case-insensitively */
                    name: string;
                    /** @enum {string} */
                    category: "open" | "waiting" | "resolved";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ConversationStatus"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed of surrounding whitespace, then 1..50 characters; unique case-insensitively */
                    name?: string;
                    /** @enum {string} */
                    category?: "open" | "waiting" | "resolved";
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                    /** @description Open, Snoozed, Resolved and Closed cannot be renamed or deleted */
                    readonly is_system?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ConversationStatus"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPriorities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Priority"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["BusinessHours"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique case-insensitively */
                    name: string;
                    /** @description IANA time zone, e.g. Europe/Paris */
                    timezone: string;
                    description?: string;
                    always_open?: boolean;
                    /** @description Per weekday, any number of open intervals; one crossing midnight is written as two (…"24:00" and "00:00"…) */
                    hours?: {
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        monday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        tuesday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        wednesday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        thursday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        friday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        saturday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        sunday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                    };
                    /** @description Replaces the whole list */
                    holidays?: {
                        /**
                         * Format: date
                         * @description YYYY-MM-DD, a local date in the schedule time zone
                         */
                        date: string;
                        name?: string;
                        /**
                         * @description Repeats on this month and day every year
                         * @default false
                         */
                        yearly?: boolean;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["BusinessHours"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["BusinessHours"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique case-insensitively */
                    name?: string;
                    /** @description IANA time zone, e.g. Europe/Paris */
                    timezone?: string;
                    description?: string;
                    always_open?: boolean;
                    /** @description Per weekday, any number of open intervals; one crossing midnight is written as two (…"24:00" and "00:00"…) */
                    hours?: {
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        monday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        tuesday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        wednesday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        thursday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        friday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        saturday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                        /** @description Open intervals, not overlapping; an empty list (or, in a request, a missing day) is closed */
                        sunday?: {
                            /** @description HH:MM, 00:00 to 23:59, local time */
                            open: string;
                            /** @description HH:MM, 00:01 to 24:00, after open, local time */
                            close: string;
                        }[];
                    };
                    /** @description Replaces the whole list */
                    holidays?: {
                        /**
                         * Format: date
                         * @description YYYY-MM-DD, a local date in the schedule time zone
                         */
                        date: string;
                        name?: string;
                        /**
                         * @description Repeats on this month and day every year
                         * @default false
                         */
                        yearly?: boolean;
                    }[];
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["BusinessHours"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteBusinessHours: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSettingsGeneral: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["GeneralSettings"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateSettingsGeneral: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Partial: fields left out keep their value */
        requestBody: {
            content: {
                "application/json": {
                    business_hours_id?: number | null;
                    /** @description IANA time zone, e.g. Europe/Paris; null: follow TIMEZONE again */
                    timezone?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["GeneralSettings"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSla: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["SlaPolicy"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSla: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique case-insensitively */
                    name: string;
                    description?: string;
                    /** @description Minutes from the application to the first public agent reply; null: no target */
                    first_response_minutes?: number | null;
                    /** @description Minutes from a contact's message that follows an agent reply to the next public reply; null: no target */
                    next_response_minutes?: number | null;
                    /** @description Minutes from the application to a resolved status; null: no target */
                    resolution_minutes?: number | null;
                    /** @description Calendar minutes before a deadline when conversation.sla_warning is recorded; null or 0: no warning */
                    warning_minutes?: number | null;
                    /** @description true: count only the business hours of the conversation's team, else the default hours (calendar time when neither is set); false: calendar time */
                    business_hours_only?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["SlaPolicy"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSla: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["SlaPolicy"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateSla: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Unique case-insensitively */
                    name?: string;
                    description?: string;
                    /** @description Minutes from the application to the first public agent reply; null: no target */
                    first_response_minutes?: number | null;
                    /** @description Minutes from a contact's message that follows an agent reply to the next public reply; null: no target */
                    next_response_minutes?: number | null;
                    /** @description Minutes from the application to a resolved status; null: no target */
                    resolution_minutes?: number | null;
                    /** @description Calendar minutes before a deadline when conversation.sla_warning is recorded; null or 0: no warning */
                    warning_minutes?: number | null;
                    /** @description true: count only the business hours of the conversation's team, else the default hours (calendar time when neither is set); false: calendar time */
                    business_hours_only?: boolean;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["SlaPolicy"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteSla: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listContacts: {
        parameters: {
            query?: {
                /** @description Page number, from 1; values outside are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description Case-insensitive substring of the name, email or phone number */
                q?: string;
                order_by?: "created_at" | "updated_at" | "first_name" | "email";
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["Contact"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createContact: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description `email` or `external_user_id` is required. Email is unique among contacts without an external id; external id is unique among contacts (409 otherwise). */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: trimmed-email
                     * @description Email address (international addresses welcome); trimmed and lowercased
                     */
                    email?: string | null;
                    /** @description Trimmed; must not be blank */
                    first_name: string;
                    /** @description Trimmed */
                    last_name?: string;
                    /** @description Trimmed */
                    phone_number?: string | null;
                    /** @description ISO 3166-1 alpha-2 country code; stored upper-case */
                    phone_number_country_code?: string | null;
                    /** @description Your own id for this person; unique among contacts */
                    external_user_id?: string | null;
                    /** @description Free-form attributes (a JSON object); replaced as a whole on update */
                    custom_attributes?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Contact"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Contact"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        /** @description Partial update: omitted fields keep their value. A contact keeps an email or an external id. */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: trimmed-email
                     * @description Email address (international addresses welcome); trimmed and lowercased
                     */
                    email?: string | null;
                    /** @description Trimmed; must not be blank */
                    first_name?: string;
                    /** @description Trimmed */
                    last_name?: string;
                    /** @description Trimmed */
                    phone_number?: string | null;
                    /** @description ISO 3166-1 alpha-2 country code; stored upper-case */
                    phone_number_country_code?: string | null;
                    /** @description Your own id for this person; unique among contacts */
                    external_user_id?: string | null;
                    /** @description Free-form attributes (a JSON object); replaced as a whole on update */
                    custom_attributes?: {
                        [key: string]: unknown;
                    };
                    /** @description Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels). */
                    load_remote_images?: boolean;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                    /**
                     * @description `agent` for agents; `contact` or `visitor` for contacts
                     * @enum {string}
                     */
                    readonly type?: "agent" | "contact" | "visitor";
                    /** @enum {string} */
                    readonly availability_status?: "available" | "busy" | "away" | "offline";
                    readonly avatar_url?: string | null;
                    readonly enabled?: boolean;
                    /** Format: date-time */
                    readonly last_active_at?: string | null;
                    /** Format: date-time */
                    readonly last_login_at?: string | null;
                    readonly roles?: string[];
                    readonly permissions?: string[];
                    readonly teams?: {
                        id: number;
                        name: string;
                        emoji: string;
                    }[];
                    readonly api_key?: string | null;
                    /** Format: date-time */
                    readonly api_key_last_used_at?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Contact"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    blockContact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description `false` blocks the contact, `true` unblocks it */
                    enabled: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Contact"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listContactNotes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ContactNote"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createContactNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description HTML, sanitised on the way in exactly as message content is: an allow-list of formatting tags (p, br, b, i, a, lists, headings, tables, img…) is kept, everything else (script, style, iframe, event handlers such as onerror, javascript: and data: links) is removed. Plain text is read as HTML too: `<` and `&` come back escaped, and line breaks need <br> or <p>. Trimmed; 1..10000 characters, and after sanitising it must still show some text or an image (else 400). */
                    note: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ContactNote"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteContactNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Contact id */
                id: number;
                /** @description Note id */
                note_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listInboxes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Inbox"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createInbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInbox"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Inbox"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listInboxesCompact: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["InboxCompact"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Inbox"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        /** @description Partial update. `config`, when sent, replaces the whole config (absent fields take their defaults; absent or masked secrets keep their stored value). */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateInbox"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Inbox"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    toggleInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Inbox"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rotateInboxSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RotateSecretBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            secret: string;
                            sessions_ended: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getInboxEmailStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["EmailReaderStatus"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listInboxEmailSkipped: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
            };
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["SkippedMail"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testInboxEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        /** @description Settings to test in place of the stored ones (unsaved edits). A part left out is tested as stored; an empty body tests both stored servers. A password left out or masked uses the stored one, only while host, port, tls and tls_skip_verify are unchanged. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailConnectionTestBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["EmailConnectionTest"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    uploadMedia: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description One or more file parts named `files` */
                    files: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            uuid: string;
                            name: string;
                            content_type: string;
                            size: number;
                            /** @enum {string} */
                            disposition: "attachment" | "inline";
                            content_id: string | null;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMedia: {
        parameters: {
            query?: {
                /** @description Expiry, in Unix seconds */
                exp?: string | string[];
                /** @description base64url HMAC-SHA256 signature of `<uuid>:<exp>`, keyed by a key derived from SECRET_KEY */
                sig?: string | string[];
            };
            header?: never;
            path: {
                /** @description Media uuid */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationsAll: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description Status name (case-insensitive); repeat the parameter for several */
                status?: string[];
                /** @description Priority name (case-insensitive); repeat the parameter for several */
                priority?: string[];
                /** @description Tag name: conversations having any of them; repeat the parameter for several */
                tag?: string[];
                /** @description Inbox id; repeat the parameter for several */
                inbox_id?: number[];
                /** @description Assigned team id; repeat the parameter for several */
                team_id?: number[];
                /** @description Assigned agent id; repeat the parameter for several */
                assignee_id?: number[];
                /** @description Contact id: that contact's conversations; repeat the parameter for several */
                contact_id?: number[];
                order_by?: "last_message_at" | "created_at" | "updated_at" | "waiting_since" | "next_sla_deadline_at";
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["ConversationListItem"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationsAssigned: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description Status name (case-insensitive); repeat the parameter for several */
                status?: string[];
                /** @description Priority name (case-insensitive); repeat the parameter for several */
                priority?: string[];
                /** @description Tag name: conversations having any of them; repeat the parameter for several */
                tag?: string[];
                /** @description Inbox id; repeat the parameter for several */
                inbox_id?: number[];
                /** @description Assigned team id; repeat the parameter for several */
                team_id?: number[];
                /** @description Assigned agent id; repeat the parameter for several */
                assignee_id?: number[];
                /** @description Contact id: that contact's conversations; repeat the parameter for several */
                contact_id?: number[];
                order_by?: "last_message_at" | "created_at" | "updated_at" | "waiting_since" | "next_sla_deadline_at";
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["ConversationListItem"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationsUnassigned: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description Status name (case-insensitive); repeat the parameter for several */
                status?: string[];
                /** @description Priority name (case-insensitive); repeat the parameter for several */
                priority?: string[];
                /** @description Tag name: conversations having any of them; repeat the parameter for several */
                tag?: string[];
                /** @description Inbox id; repeat the parameter for several */
                inbox_id?: number[];
                /** @description Assigned team id; repeat the parameter for several */
                team_id?: number[];
                /** @description Assigned agent id; repeat the parameter for several */
                assignee_id?: number[];
                /** @description Contact id: that contact's conversations; repeat the parameter for several */
                contact_id?: number[];
                order_by?: "last_message_at" | "created_at" | "updated_at" | "waiting_since" | "next_sla_deadline_at";
                order?: "asc" | "desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["ConversationListItem"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listTeamConversationsUnassigned: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description Status name (case-insensitive); repeat the parameter for several */
                status?: string[];
                /** @description Priority name (case-insensitive); repeat the parameter for several */
                priority?: string[];
                /** @description Tag name: conversations having any of them; repeat the parameter for several */
                tag?: string[];
                /** @description Inbox id; repeat the parameter for several */
                inbox_id?: number[];
                /** @description Assigned team id; repeat the parameter for several */
                team_id?: number[];
                /** @description Assigned agent id; repeat the parameter for several */
                assignee_id?: number[];
                /** @description Contact id: that contact's conversations; repeat the parameter for several */
                contact_id?: number[];
                order_by?: "last_message_at" | "created_at" | "updated_at" | "waiting_since" | "next_sla_deadline_at";
                order?: "asc" | "desc";
            };
            header?: never;
            path: {
                /** @description Team id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["ConversationListItem"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConversationsCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            /** @description Counts stop at cap + 1: show "cap+" above cap */
                            cap: number;
                            /** @description Assigned to the caller; null without conversations:read_assigned */
                            mine: {
                                /** @description Open conversations of the view (status category open), at most cap + 1 */
                                open: number;
                                /** @description Of those, the ones with a public message from the contact newer than the caller's last-seen mark, at most cap + 1 */
                                unread: number;
                            } | null;
                            /** @description No agent assigned; null without conversations:read_unassigned */
                            unassigned: {
                                /** @description Open conversations of the view (status category open), at most cap + 1 */
                                open: number;
                                /** @description Of those, the ones with a public message from the contact newer than the caller's last-seen mark, at most cap + 1 */
                                unread: number;
                            } | null;
                            /** @description Every conversation; null without conversations:read_all */
                            all: {
                                /** @description Open conversations of the view (status category open), at most cap + 1 */
                                open: number;
                                /** @description Of those, the ones with a public message from the contact newer than the caller's last-seen mark, at most cap + 1 */
                                unread: number;
                            } | null;
                            /** @description Per team: every conversation of the team with conversations:read_all (every team), else the unassigned queue of each of the caller's teams with conversations:read_team_inbox */
                            teams: {
                                id: number;
                                /** @description Open conversations of the view (status category open), at most cap + 1 */
                                open: number;
                                /** @description Of those, the ones with a public message from the contact newer than the caller's last-seen mark, at most cap + 1 */
                                unread: number;
                            }[];
                            /** @description Per live inbox, with conversations:read_all; empty otherwise */
                            inboxes: {
                                id: number;
                                /** @description Open conversations of the view (status category open), at most cap + 1 */
                                open: number;
                                /** @description Of those, the ones with a public message from the contact newer than the caller's last-seen mark, at most cap + 1 */
                                unread: number;
                            }[];
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createConversation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Exactly one of `contact_id` or `contact_email` (a contact is created for an unknown email). `initiator` agent (default): the first message is a reply from the caller; contact: it is an incoming message from the contact. `assignee_id` needs `conversations:update_user_assignee` (unless it is the caller), `team_id` needs `conversations:update_team_assignee`. */
        requestBody: {
            content: {
                "application/json": {
                    inbox_id: number;
                    contact_id?: number;
                    /**
                     * Format: trimmed-email
                     * @description Trimmed and lowercased
                     */
                    contact_email?: string;
                    first_name?: string;
                    last_name?: string;
                    subject?: string;
                    /** @description First message; HTML, sanitised (nested at most 100 levels deep) */
                    content: string;
                    /**
                     * @default agent
                     * @enum {string}
                     */
                    initiator?: "agent" | "contact";
                    assignee_id?: number;
                    team_id?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConversationStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Status name, e.g. Open, Snoozed, Resolved, Closed */
                    status: string;
                    /** @description For a waiting status: an RFC 3339 time or a duration such as `30m`, `2h`, `1d`, `1w`, `1h30m` */
                    snoozed_until?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConversationPriority: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Low, Medium, High or Urgent */
                    priority: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConversationAssigneeUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    assignee_id: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConversationAssigneeTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    assignee_id: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    removeConversationAssigneeUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    removeConversationAssigneeTeam: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConversationSla: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AppliedSla"] | null;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConversationSla: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The policy to apply (replacing any applied one: a new applied_sla_id), or null to remove it */
                    sla_policy_id: number | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AppliedSla"] | null;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createConversationTag: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Tag names (case-insensitive); unknown names → 400 */
                    tags: string[];
                    /**
                     * @default add_tags
                     * @enum {string}
                     */
                    action?: "add_tags" | "remove_tags" | "set_tags";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConversationLastSeen: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    markConversationUnread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Conversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationMessages: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
            };
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["Message"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createConversationMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description A retry with the same key returns the first result instead of sending twice */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The content; HTML is sanitised against an allow-list and may nest at most 100 levels deep */
                    message: string;
                    /**
                     * @default html
                     * @enum {string}
                     */
                    content_type?: "text" | "html";
                    /**
                     * @description A private note, seen by agents only
                     * @default false
                     */
                    private?: boolean;
                    /** @description Uuids from POST /api/v1/media/upload */
                    attachments?: string[];
                    to?: string[];
                    cc?: string[];
                    bcc?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Message"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConversationMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
                /** @description Message uuid */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Message"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationsMentioned: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["MentionedConversation"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationFollowers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Follower"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createConversationFollower: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FollowBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Follower"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteConversationFollower: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
                /** @description Agent id */
                agent_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Follower"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getConversationDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Draft"] | null;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateConversationDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description HTML, sanitised like a message (at most 100 levels deep); an empty one (no text, image or attachment) deletes the draft and answers null */
                    content: string;
                    /**
                     * @description Written as a private note
                     * @default false
                     */
                    private?: boolean;
                    /** @description The caller's own uploads not attached to a message yet, as when sending */
                    attachments?: string[];
                    /** Format: date-time */
                    readonly updated_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Draft"] | null;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteConversationDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationDrafts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ColleagueDraft"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listMacros: {
        parameters: {
            query?: {
                /** @description Only the macros offered for this conversation's status category (the conversation must be readable) */
                conversation_uuid?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Macro"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createMacro: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A Macro object. Defaults: actions {}, visibility global, visible_when all three categories, message_content "". `global` and `team` macros need `macros:manage`; any agent may create a `user` macro of their own. id, created_at, updated_at and usage_count are ignored. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed; then 1..255 characters */
                    name: string;
                    actions?: components["schemas"]["MacroActions"];
                    /**
                     * @description `global`: every agent; `team`: members of `team_id`; `user`: only `user_id`
                     * @enum {string}
                     */
                    visibility?: "global" | "team" | "user";
                    /** @description Status categories of the conversations the macro is offered for (duplicates are dropped). Default: all three. */
                    visible_when?: ("conversation_open" | "conversation_waiting" | "conversation_resolved")[];
                    /** @description HTML (sanitised when saved). Placeholders: {{contact.first_name}}, {{contact.last_name}}, {{contact.email}}, {{agent.first_name}}, {{agent.last_name}}, {{conversation.reference_number}}, {{conversation.subject}} */
                    message_content?: string;
                    /** @description Team (required for visibility `team`; cleared otherwise) id as a string (an integer is accepted); null or "" for none */
                    team_id?: string | number | null;
                    /** @description Agent (required for visibility `user`; cleared otherwise) id as a string (an integer is accepted); null or "" for none */
                    user_id?: string | number | null;
                    /** @description Ignored (the path names the macro) */
                    id?: number;
                    /** @description Ignored */
                    created_at?: string;
                    /** @description Ignored */
                    updated_at?: string;
                    /** @description Ignored (counted by the server) */
                    usage_count?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Macro"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMacro: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Macro"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateMacro: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        /** @description A Macro object, whole or partial: omitted fields keep their value. id, created_at, updated_at and usage_count are ignored. Changing a macro needs the right to manage it before and after the change. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed; then 1..255 characters */
                    name?: string;
                    actions?: components["schemas"]["MacroActions"];
                    /**
                     * @description `global`: every agent; `team`: members of `team_id`; `user`: only `user_id`
                     * @enum {string}
                     */
                    visibility?: "global" | "team" | "user";
                    /** @description Status categories of the conversations the macro is offered for (duplicates are dropped). Default: all three. */
                    visible_when?: ("conversation_open" | "conversation_waiting" | "conversation_resolved")[];
                    /** @description HTML (sanitised when saved). Placeholders: {{contact.first_name}}, {{contact.last_name}}, {{contact.email}}, {{agent.first_name}}, {{agent.last_name}}, {{conversation.reference_number}}, {{conversation.subject}} */
                    message_content?: string;
                    /** @description Team (required for visibility `team`; cleared otherwise) id as a string (an integer is accepted); null or "" for none */
                    team_id?: string | number | null;
                    /** @description Agent (required for visibility `user`; cleared otherwise) id as a string (an integer is accepted); null or "" for none */
                    user_id?: string | number | null;
                    readonly id?: number;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                    readonly usage_count?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Macro"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteMacro: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    applyConversationMacro: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
                /** @description Macro id */
                id: number;
            };
            cookie?: never;
        };
        /** @description Optional; no body means `{"send_message": false}` */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Send the rendered message_content as a reply (needs `messages:write`); nothing is sent when it is empty
                     * @default false
                     */
                    send_message?: boolean;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["MacroApplyResult"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReportsOverviewTags: {
        parameters: {
            query?: {
                /** @description Number of past days included: conversations created since `days` × 24 h before now. `0` means today only (since local midnight in the time zone of the general settings, `TIMEZONE` until one is set). Values outside 0..365 are clamped; a non-integer is refused (400). Default 30. */
                days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["TagDistributionReport"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReportsService: {
        parameters: {
            query?: {
                /** @description YYYY-MM-DD, a local date in the general settings’ time zone */
                from?: string;
                /** @description YYYY-MM-DD, a local date in the general settings’ time zone */
                to?: string;
                team_id?: number;
                inbox_id?: number;
                agent_id?: number;
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ServiceReport"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getReportsOverviewCounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["OverviewCounts"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    search: {
        parameters: {
            query: {
                /** @description The text to look for; trimmed, then 1..200 characters (blank or longer → 400). A reference number may be written with a leading `#`. */
                q: string;
                /** @description Results per section, 1..50; values outside are clamped. Default 10. */
                limit?: number;
                /** @description Conversation status, by name (case-insensitive) or id; repeat the parameter for several */
                status?: string[];
                /** @description Inbox id; repeat the parameter for several */
                inbox_id?: number[];
                /** @description Assigned team id; repeat the parameter for several */
                team_id?: number[];
                /** @description Assigned agent id, or `unassigned` for conversations assigned to no agent; repeat the parameter for several */
                assignee_id?: string[];
                /** @description Created at or after: an RFC 3339 time, or a date `YYYY-MM-DD` (its start, UTC). Conversations by their creation, messages by theirs. */
                from?: string;
                /** @description Created before: an RFC 3339 time, or a date `YYYY-MM-DD` (that whole day included, UTC). */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["SearchResults"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Webhook"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhook"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhooksCompact: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WebhookCompact"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        /** @description The whole webhook, as GET answers it (read-only fields are ignored): name, url and events are required; enabled, headers and secret keep their stored value when absent. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhook"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    toggleWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Webhook"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description Only these statuses (repeat for several) */
                status?: ("pending" | "succeeded" | "failed" | "dead" | "refused")[];
                /** @description Only these event types (repeat for several) */
                event_type?: ("conversation.created" | "conversation.status_changed" | "conversation.assigned" | "conversation.unassigned" | "conversation.priority_changed" | "conversation.tags_changed" | "conversation.sla_warning" | "conversation.sla_breached" | "message.created" | "message.updated" | "contact.created" | "contact.enabled_changed" | "contact.merged" | "webhook.test")[];
            };
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["WebhookDelivery"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: number;
                /** @description Delivery id */
                delivery_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WebhookDeliveryDetail"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WebhookDeliveryDetail"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook id */
                id: number;
                /** @description Delivery id */
                delivery_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WebhookDeliveryDetail"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWidgetChatSettingsLauncher: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetLauncherSettings"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWidgetChatSettings: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetSettings"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWidgetChatExchange: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A JWT signed by your server with the inbox secret (HS256/384/512) */
                    jwt: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetSession"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWidgetChatMe: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetUser"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    initWidgetChatConversations: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Plain text, 1..10000 characters */
                    message: string;
                    /** @description Pre-chat form values by field key (at most 100; text up to 1000 characters, numbers, booleans). Checked against the enabled fields when the form is enabled; other keys are ignored. */
                    form_data?: {
                        [key: string]: string | number | boolean;
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetInitResult"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWidgetChatConversations: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ChatConversation"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWidgetChatConversation: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path: {
                /** @description Conversation uuid */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetConversation"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWidgetChatConversationMessage: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path: {
                /** @description Conversation uuid */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Plain text, 1..10000 characters */
                    message: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ChatMessage"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWidgetChatConversationUpdateLastSeen: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path: {
                /** @description Conversation uuid */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    uploadWidgetMedia: {
        parameters: {
            query?: {
                /** @description The live-chat inbox uuid, when the X-Service-Inbox-ID header is not sent (the header wins) */
                inbox_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /** @description The conversation the files go to */
                    conversation_uuid: string;
                    /** @description One or more file parts named `files` */
                    files: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["ChatMessage"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createInboxWidgetPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LivechatInboxConfig"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetPreview"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createInboxWidgetOriginCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description An address of the site (`https://shop.example.com/cart`); a bare host name is read as https */
                    url: string;
                    /** @description The list being edited (as `PUT /inboxes/{id}`'s `config.trusted_domains`, checked the same way); the saved one when absent */
                    trusted_domains?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["WidgetOriginCheck"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listOidcProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["OidcProvider"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OidcProviderBody"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["OidcProvider"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEnabledOidcProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["EnabledOidcProvider"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        data: components["schemas"]["OidcProvider"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOidcProvider"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["OidcProvider"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    testOidcProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["OidcDiscoveryReport"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startOidcLogin: {
        parameters: {
            query?: {
                /** @description Where to land after signing in: a path on this site (`/inbox/3`), never another origin. Default `/`. */
                next?: string;
            };
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the provider’s authorization endpoint */
            302: {
                headers: {
                    /** @description Where the browser goes next */
                    location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    finishOidcLogin: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                iss?: string;
                error?: string;
                error_description?: string;
                error_uri?: string;
            };
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To `next` on this site, signed in */
            302: {
                headers: {
                    /** @description Where the browser goes next */
                    location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listContactPageVisits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["PageVisit"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listConversationViewers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation uuid */
                cuuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Viewer"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AiProvider"] | null;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description `openai`: the OpenAI-compatible chat completions protocol (OpenAI, Azure-compatible gateways, Ollama, vLLM, LM Studio…)
                     * @enum {string}
                     */
                    provider: "openai";
                    /** @description The provider's API key, at most 500 printable ASCII characters; stored encrypted and never answered. Send "••••••••••" to keep the stored key; send "" for a server that needs no key (Ollama): no Authorization header is sent then. */
                    api_key: string;
                    /**
                     * Format: http-url
                     * @description Address of the OpenAI-compatible API, up to its version segment (e.g. `http://localhost:11434/v1` for Ollama); no query or fragment. May be a private or loopback address. Default `https://api.openai.com/v1`; when left out, the stored value is kept.
                     */
                    base_url?: string;
                    /** @description Model name, as the provider spells it. Default `gpt-4o-mini`; when left out, the stored value is kept. */
                    model?: string;
                    readonly has_api_key?: boolean;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAiProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAiStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AiStatus"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAiPrompts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AiPrompt"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAiPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Lowercase letters, digits and `_`, 1..64 characters */
                    key: string;
                    /** @description Trimmed, then 1..100 characters */
                    title: string;
                    /** @description Plain text, trimmed, then 1..4000 characters */
                    content: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AiPrompt"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAiPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lowercase letters, digits and `_`, 1..64 characters */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed, then 1..100 characters */
                    title?: string;
                    /** @description Plain text, trimmed, then 1..4000 characters */
                    content: string;
                    readonly id?: number;
                    readonly key?: string;
                    /** Format: date-time */
                    readonly created_at?: string;
                    /** Format: date-time */
                    readonly updated_at?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AiPrompt"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAiPrompt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lowercase letters, digits and `_`, 1..64 characters */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAiCompletion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A key listed by `GET /api/v1/ai/prompts` */
                    prompt_key: string;
                    /** @description The agent's draft, HTML or plain text, 1..20000 characters */
                    content: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: string;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAuditLog: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description Entries of this actor: an agent, or with `actor_type=automation` a rule */
                actor_id?: number;
                /** @description Entries of this kind of actor. Without it, `actor_id` names an agent (entries of its sessions and of its API key); with `automation`, a rule. */
                actor_type?: "agent" | "api_key" | "system" | "automation";
                /** @description Entries of this action */
                action?: "auth.login" | "auth.login_failed" | "auth.logout" | "auth.password_reset" | "auth.password_changed" | "auth.2fa_enabled" | "auth.2fa_disabled" | "auth.2fa_reset" | "auth.session_ended" | "agent.created" | "agent.updated" | "agent.deleted" | "agent.invited" | "agent.api_key_created" | "agent.api_key_revoked" | "role.created" | "role.updated" | "role.deleted" | "team.created" | "team.updated" | "team.deleted" | "inbox.created" | "inbox.updated" | "inbox.deleted" | "inbox.secret_rotated" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated" | "oidc.created" | "oidc.updated" | "oidc.deleted" | "ai.updated" | "ai.deleted" | "ai.prompt_created" | "ai.prompt_updated" | "ai.prompt_deleted" | "settings.updated" | "sla.created" | "sla.updated" | "sla.deleted" | "business_hours.created" | "business_hours.updated" | "business_hours.deleted";
                /** @description Entries about this kind of resource, e.g. `role` */
                resource_type?: string;
                /** @description Entries at or after this instant (RFC 3339, with its offset) */
                from?: string;
                /** @description Entries before this instant (excluded) */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["AuditEntry"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAuditLogActions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["AuditCatalogue"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAuditLogExport: {
        parameters: {
            query: {
                /** @description Only `csv` for now */
                format: "csv";
                /** @description Entries of this actor: an agent, or with `actor_type=automation` a rule */
                actor_id?: number;
                /** @description Entries of this kind of actor. Without it, `actor_id` names an agent (entries of its sessions and of its API key); with `automation`, a rule. */
                actor_type?: "agent" | "api_key" | "system" | "automation";
                /** @description Entries of this action */
                action?: "auth.login" | "auth.login_failed" | "auth.logout" | "auth.password_reset" | "auth.password_changed" | "auth.2fa_enabled" | "auth.2fa_disabled" | "auth.2fa_reset" | "auth.session_ended" | "agent.created" | "agent.updated" | "agent.deleted" | "agent.invited" | "agent.api_key_created" | "agent.api_key_revoked" | "role.created" | "role.updated" | "role.deleted" | "team.created" | "team.updated" | "team.deleted" | "inbox.created" | "inbox.updated" | "inbox.deleted" | "inbox.secret_rotated" | "webhook.created" | "webhook.updated" | "webhook.deleted" | "webhook.secret_rotated" | "oidc.created" | "oidc.updated" | "oidc.deleted" | "ai.updated" | "ai.deleted" | "ai.prompt_created" | "ai.prompt_updated" | "ai.prompt_deleted" | "settings.updated" | "sla.created" | "sla.updated" | "sla.deleted" | "business_hours.created" | "business_hours.updated" | "business_hours.deleted";
                /** @description Entries about this kind of resource, e.g. `role` */
                resource_type?: string;
                /** @description Entries at or after this instant (RFC 3339, with its offset) */
                from?: string;
                /** @description Entries before this instant (excluded) */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listNotifications: {
        parameters: {
            query?: {
                /** @description Page number, from 1; larger values are clamped. */
                page?: number;
                /** @description Items per page, 1..100; values outside are clamped. */
                page_size?: number;
                /** @description `true`: only the unread ones. */
                unread?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            results: components["schemas"]["Notification"][];
                            total: number;
                            per_page: number;
                            total_pages: number;
                            page: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getNotificationsUnreadCount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            count: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createNotificationsReadAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: {
                            /** @description How many notifications were unread and are read now */
                            count: number;
                        };
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateNotificationRead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A notification’s `id` */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Notification"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateNotificationUnread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A notification’s `id` */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["Notification"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteNotification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A notification’s `id` */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getAgentMeNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["NotificationSettings"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateAgentMeNotificationSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NotificationSettingsChange"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["NotificationSettings"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPushVapidPublicKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["VapidPublicKey"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listAgentMePushSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["PushSubscription"][];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createAgentMePushSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePushSubscription"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["PushSubscription"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteAgentMePushSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Integer id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        /** @enum {boolean} */
                        data: true;
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getCsat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Survey uuid */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["PublicCsatSurvey"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createCsatResponse: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Survey uuid */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 (bad) to 5 (great) */
                    rating: number;
                    /** @description Plain text, at most 2000 characters; omitted keeps the stored one */
                    feedback?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "success";
                        data: components["schemas"]["PublicCsatSurvey"];
                    };
                };
            };
            /** @description Every error answer has this shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Every error answer has this shape. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    webhookConversationCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationCreated"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookConversationStatusChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationStatusChanged"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookConversationAssigned: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationAssigned"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookConversationUnassigned: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationUnassigned"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookConversationPriorityChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationPriorityChanged"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookConversationTagsChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationTagsChanged"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookConversationSlaWarning: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationSlaWarning"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookConversationSlaBreached: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookConversationSlaBreached"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookMessageCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookMessageCreated"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookMessageUpdated: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookMessageUpdated"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookContactCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookContactCreated"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookContactEnabledChanged: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookContactEnabledChanged"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookContactMerged: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookContactMerged"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookWebhookTest: {
        parameters: {
            query?: never;
            header: {
                /** @description The delivery (`msg_<uuid>`): the same on every attempt, so a receiver that saw it succeed can ignore a repeat */
                "webhook-id": string;
                /** @description When this attempt was signed, in seconds since the Unix epoch */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` under the webhook secret (`whsec_<base64 key>`): verify it with any Standard Webhooks library */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookWebhookTest"];
            };
        };
        responses: {
            /** @description Any 2xx answer: delivered, never sent again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Anything else (3xx included: redirects are not followed), or no answer in time: retried later */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
