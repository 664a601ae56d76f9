// Generates the socket frames' types of the web app (web/src/realtime/frames.gen.ts) and the
// widget (widget/src/frame/frames.gen.ts) from their schemas (server/src/realtime/frames.schema.ts),
// with openapi-typescript, as the API types are: `npm run openapi` (root) writes them. The files
// are committed; server/src/realtime/frames.schema.test.ts fails when one is stale.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { AgentClientFrame, AgentServerFrame, WidgetClientFrame, WidgetServerFrame } from '../src/realtime/frames.schema.ts';

const root = resolve(import.meta.dirname, '..', '..');
export const WEB_FRAMES_FILE = resolve(root, 'web', 'src', 'realtime', 'frames.gen.ts');
export const WIDGET_FRAMES_FILE = resolve(root, 'widget', 'src', 'frame', 'frames.gen.ts');

const HEADER = `// Generated from server/src/realtime/frames.schema.ts by server/scripts/frame-types.ts
// (npm run openapi). Do not edit: change the frame schemas and generate again.
`;

/** The types of one socket's frames: `ServerFrame` (what it sends), `ClientFrame` (what it accepts), one of each by type. */
async function typesOf(socket: string, server: unknown, client: unknown): Promise<string> {
  const document = {
    openapi: '3.1.0',
    info: { title: `Parley ${socket} socket frames`, version: '1' },
    paths: {},
    // A JSON copy: the schemas as JSON Schema, without TypeBox's own markers.
    components: { schemas: JSON.parse(JSON.stringify({ ServerFrame: server, ClientFrame: client })) },
  };
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0]);
  return `${HEADER}${astToString(ast)}
export type ServerFrame = components['schemas']['ServerFrame'];
export type ClientFrame = components['schemas']['ClientFrame'];
/** The server frame of one type. */
export type ServerFrameOf<T extends ServerFrame['type']> = Extract<ServerFrame, { type: T }>;
/** The client frame of one type. */
export type ClientFrameOf<T extends ClientFrame['type']> = Extract<ClientFrame, { type: T }>;
`;
}

/** The generated files, by path, as committed. */
export async function frameTypes(): Promise<Record<string, string>> {
  return {
    [WEB_FRAMES_FILE]: await typesOf('agent', AgentServerFrame, AgentClientFrame),
    [WIDGET_FRAMES_FILE]: await typesOf('widget', WidgetServerFrame, WidgetClientFrame),
  };
}

if (import.meta.main) {
  for (const [file, text] of Object.entries(await frameTypes())) {
    writeFileSync(file, text);
    process.stdout.write(`wrote ${file} (${text.length} characters)\n`);
  }
}
