// Generated from server/src/realtime/frames.schema.ts by server/scripts/frame-types.ts
// (npm run openapi). Do not edit: change the frame schemas and generate again.
export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ServerFrame: {
            /** @constant */
            type: "pong";
        } | {
            /** @constant */
            type: "error";
            data: {
                message: string;
                /** @enum {string} */
                code?: "not_found" | "join_failed" | "not_joined" | "rate_limited";
            };
        } | {
            /** @constant */
            type: "subscribed";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
            };
        } | {
            /** @constant */
            type: "unsubscribed";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
            };
        } | {
            /** @constant */
            type: "new_conversation";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                id: number;
                inbox_id: number;
                contact_id: number;
                /** @enum {string} */
                initiator: "agent" | "contact";
                assigned_user_id: number | null;
                assigned_team_id: number | null;
                /** Format: date-time */
                created_at: string;
            };
            event: {
                id: number;
                /** Format: date-time */
                created_at: string;
            };
        } | {
            /** @constant */
            type: "new_message";
            /** Message */
            data: {
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
            event: {
                id: number;
                /** Format: date-time */
                created_at: string;
            };
        } | {
            /** @constant */
            type: "message_update";
            data: {
                /** Format: uuid */
                uuid: string;
                id: number;
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
                /** @enum {string} */
                status: "received" | "pending" | "sent" | "failed";
            };
            event: {
                id: number;
                /** Format: date-time */
                created_at: string;
            };
        } | {
            /** @constant */
            type: "conversation_update";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                status: string;
                /** @enum {string} */
                status_category: "open" | "waiting" | "resolved";
                previous_status: string;
                snoozed_until: string | null;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                priority: string;
                previous_priority: string | null;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                tags: string[];
                added: string[];
                removed: string[];
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                assigned_user_id: number;
                previous_assignee_id: number | null;
                auto: boolean;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                assigned_user_id: null;
                previous_assignee_id: number;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                assigned_team_id: number;
                previous_team_id: number | null;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                assigned_team_id: null;
                previous_team_id: number;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                sla: {
                    /** @enum {string} */
                    event: "warning" | "breached";
                    applied_sla_id: number;
                    /** @enum {string} */
                    metric: "first_response" | "next_response" | "resolution";
                    /** Format: date-time */
                    deadline_at: string;
                };
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                /** Format: date-time */
                contact_last_seen_at: string;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                csat: {
                    /** Format: uuid */
                    uuid: string;
                    rating: number;
                    feedback: string;
                    /** Format: date-time */
                    submitted_at: string;
                };
            };
            event: {
                id: number;
                /** Format: date-time */
                created_at: string;
            };
        } | {
            /** @constant */
            type: "agent_availability_update";
            data: {
                agent_id: number;
                /** @enum {string} */
                availability_status: "available" | "busy" | "away" | "offline";
            };
            event: {
                id: number;
                /** Format: date-time */
                created_at: string;
            };
        } | {
            /** @constant */
            type: "contact_update";
            data: {
                contact_id: number;
                /** @enum {string} */
                presence: "online" | "offline";
            } | {
                contact_id: number;
                page_visits: {
                    url: string;
                    title: string;
                    /** Format: date-time */
                    visited_at: string;
                }[];
            };
        } | {
            /** @constant */
            type: "notification";
            /** Notification */
            data: {
                id: number;
                /** @enum {string} */
                type: "assigned" | "team_assigned" | "mentioned" | "reply" | "sla_warning" | "sla_breached";
                /** Format: date-time */
                created_at: string;
                read_at: string | null;
                /** Format: uuid */
                conversation_uuid: string;
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
            event: {
                id: number;
                /** Format: date-time */
                created_at: string;
            };
        } | {
            /** @constant */
            type: "conversation_viewers";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
                viewers: {
                    agent_id: number;
                    name: string;
                    avatar_url: string | null;
                    /** @description writing a public reply (its typing frames say so, for at most 8 s after the last) */
                    replying: boolean;
                }[];
            };
        } | {
            /** @constant */
            type: "typing";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
                is_typing: boolean;
                is_private: boolean;
                agent_id: number;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
                is_typing: boolean;
                contact_id: number;
            };
        };
        ClientFrame: {
            /** @constant */
            type: "ping";
            data?: Record<string, never>;
        } | {
            /** @constant */
            type: "subscribe";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
            };
        } | {
            /** @constant */
            type: "unsubscribe";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
            };
        } | {
            /** @constant */
            type: "typing";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
                /** @description a boolean */
                is_typing: boolean;
                /** @description a boolean */
                is_private?: boolean;
            };
        } | {
            /** @constant */
            type: "viewing";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
            };
        } | {
            /** @constant */
            type: "viewing_stopped";
            data: {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                conversation_uuid: string;
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
export type operations = Record<string, never>;

export type ServerFrame = components['schemas']['ServerFrame'];
export type ClientFrame = components['schemas']['ClientFrame'];
/** The server frame of one type. */
export type ServerFrameOf<T extends ServerFrame['type']> = Extract<ServerFrame, { type: T }>;
/** The client frame of one type. */
export type ClientFrameOf<T extends ClientFrame['type']> = Extract<ClientFrame, { type: T }>;
