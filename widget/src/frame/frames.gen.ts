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
            type: "joined";
            data: {
                message: string;
            };
        } | {
            /** @constant */
            type: "new_message";
            /** ChatMessage */
            data: {
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
                /** ChatMessageAuthor */
                author: {
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
                    last_active_at: string | null;
                };
                attachments: {
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
                }[];
                /** @description Only what the widget shows: `away` and `away_until` on the away message, `csat_uuid` on a CSAT survey; the rest of a message's meta stays private */
                meta: {
                    /** @description The away message sent outside business hours */
                    away?: boolean;
                    away_until?: string | null;
                    /**
                     * Format: uuid
                     * @description On a CSAT survey message: the survey to answer (POST /api/v1/csat/{uuid}/response)
                     */
                    csat_uuid?: string;
                };
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
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                assignee: {
                    id: number;
                    first_name: string;
                    last_name: string;
                    avatar_url: string | null;
                    /** @enum {string} */
                    availability_status: "available" | "busy" | "away" | "offline";
                    /** @constant */
                    type: "agent";
                    active_at: string | null;
                } | null;
            } | {
                /**
                 * Format: uuid
                 * @description a conversation uuid
                 */
                uuid: string;
                /** Format: date-time */
                contact_last_seen_at: string;
            };
            event: {
                id: number;
                /** Format: date-time */
                created_at: string;
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
            };
        };
        ClientFrame: {
            /** @constant */
            type: "ping";
            data?: Record<string, never>;
        } | {
            /** @constant */
            type: "join";
            /** @description the widget session token */
            token: string;
            data: {
                /**
                 * Format: uuid
                 * @description the inbox uuid
                 */
                inbox_id: string;
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
            };
        } | {
            /** @constant */
            type: "page_visit";
            data: {
                /** @description an http or https URL of at most 2048 characters */
                url: string;
                /** @description text of at most 256 characters */
                title?: string;
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
