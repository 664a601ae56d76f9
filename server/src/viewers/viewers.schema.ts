// The viewers' list as the route answers it: the records of the socket frame
// `conversation_viewers` (declared with the frames, realtime/frames.schema.ts, so the two cannot drift apart).
import { type Static, Type } from 'typebox';
import { Viewer as ViewerRecord } from '../realtime/frames.schema.ts';

export const ViewerList = Type.Array(ViewerRecord);
export type Viewer = Static<typeof ViewerRecord>;
