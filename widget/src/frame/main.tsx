// The chat frame's entry: the inbox and the host page's origin come from the frame's URL
// (/widget/frame/?inbox_id=…&origin=…, written by the loader); `?preview=1` is the web app's
// live preview (preview.ts), which renders what Parley's page sends and talks to no server.
import { render } from 'preact';
import { App } from './App.tsx';
import { createChat } from './chat.ts';
import { hostBridge } from './host.ts';
import { createPreviewChat } from './preview.ts';
import './styles.css';

const params = new URLSearchParams(location.search);
const inbox = (params.get('inbox_id') ?? '').toLowerCase();
const host = hostBridge(params.get('origin'));
const chat = params.get('preview') === '1' ? createPreviewChat(host) : createChat(inbox, host);
const root = document.getElementById('app');
if (root) {
  render(<App chat={chat} />, root);
  void chat.boot();
}
