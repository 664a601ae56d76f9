// The chat frame's entry: the inbox and the host page's origin come from the frame's URL
// (/widget/frame/?inbox_id=…&origin=…, written by the loader).
import { render } from 'preact';
import { App } from './App.tsx';
import { createChat } from './chat.ts';
import { hostBridge } from './host.ts';
import './styles.css';

const params = new URLSearchParams(location.search);
const inbox = (params.get('inbox_id') ?? '').toLowerCase();
const chat = createChat(inbox, hostBridge(params.get('origin')));
const root = document.getElementById('app');
if (root) {
  render(<App chat={chat} />, root);
  void chat.boot();
}
