// The reply and private-note editor (TipTap: it writes the HTML the API sanitises), with
// attachments, macros, the AI rewrite menu and typing indicators. Loaded with the conversation
// screen only (React.lazy), so the lists never download the editor. One composer per
// conversation (ConversationView keys it by uuid): its draft, attachments and mode are that
// conversation's, saved on the server (draft.ts) while the agent looks elsewhere or moves to another device.
import { Bold, Code, Italic, Link, List, ListOrdered, X, type LucideIcon } from 'lucide-react';
import { Placeholder } from '@tiptap/extension-placeholder';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, unwrap, uploadFiles } from '../../api/client';
import { keys } from '../../api/keys';
import { t } from '../../i18n/t';
import { addMessageToCache } from '../../realtime/cache';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { Button } from '../../ui/Button';
import { DropdownMenu } from '../../ui/DropdownMenu';
import { toast } from '../../ui/Toast';
import { type Attachment, type Draft, type Mode, useDraftSync } from './draft';
import { MacroMenu } from './macros';
import { useNoteMentions } from './mentions';
import { useReplyGuard } from '../presence/replyGuard';
import { useAiPrompts, useAiStatus } from './queries';

/** After this long without a keystroke the agent has stopped typing. */
const TYPING_IDLE_MS = 3000;
/** While keys keep coming, `is_typing: true` is repeated this often (receivers drop it after 6-8 s). */
const TYPING_REPEAT_MS = 2000;

/**
 * The agent's typing frames: one `true` when typing starts, repeated every TYPING_REPEAT_MS while
 * it goes on, one `false` after TYPING_IDLE_MS without a key, on send and when the composer goes
 * (unmount: it is keyed by conversation). Both functions are stable, so no effect re-runs per key.
 */
function useTypingSignal(uuid: string, mode: Mode) {
  const { socket } = useRealtime();
  const current = useRef({ socket, uuid, mode });
  current.current = { socket, uuid, mode };
  const sentAt = useRef(0);
  // The `true` went out as a private note's or a reply's: its `false` goes out the same way.
  const sentPrivate = useRef(false);
  const timer = useRef(0);
  const stop = useCallback(() => {
    window.clearTimeout(timer.current);
    if (sentAt.current === 0) return;
    const { socket: s, uuid: u } = current.current;
    s?.send({ type: 'typing', data: { conversation_uuid: u, is_typing: false, is_private: sentPrivate.current } });
    sentAt.current = 0;
  }, []);
  const keystroke = useCallback(() => {
    const { socket: s, uuid: u, mode: m } = current.current;
    const now = Date.now();
    if (sentAt.current !== 0 && sentPrivate.current !== (m === 'note')) stop();
    if (now - sentAt.current >= TYPING_REPEAT_MS) {
      sentPrivate.current = m === 'note';
      s?.send({ type: 'typing', data: { conversation_uuid: u, is_typing: true, is_private: sentPrivate.current } });
      sentAt.current = now;
    }
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(stop, TYPING_IDLE_MS);
  }, [stop]);
  useEffect(() => stop, [stop]);
  return { keystroke, stop };
}

export default function Composer({ conversationUuid }: { conversationUuid: string }) {
  const applyDraft = useRef<(d: Draft) => void>(() => {});
  const draft = useDraftSync(conversationUuid, (d) => applyDraft.current(d));
  const saved = draft.initial;
  const [mode, setMode] = useState<Mode>(saved?.mode ?? 'reply');
  const [files, setFiles] = useState<Attachment[]>(saved?.files ?? []);
  const [uploading, setUploading] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const client = useQueryClient();
  const ai = useAiStatus();
  const prompts = useAiPrompts();
  const typing = useTypingSignal(conversationUuid, mode);
  const guard = useReplyGuard(conversationUuid);
  const send = useRef<() => void>(() => {});
  // What the draft is made of, for saving it from the editor's callbacks (created once).
  const draftParts = useRef({ mode, files });
  draftParts.current = { mode, files };
  const persist = useRef((html: string) => draft.change({ html, ...draftParts.current }));
  const mentions = useNoteMentions(() => draftParts.current.mode === 'note');

  const editor = useEditor({
    content: saved?.html ?? '',
    // The toolbar's pressed states and the send button follow the content.
    shouldRerenderOnTransaction: true,
    extensions: [
      StarterKit.configure({ heading: false, link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'] } }),
      Placeholder.configure({ placeholder: () => (mode === 'note' ? t('reply.notePlaceholder') : t('reply.placeholder')) }),
      mentions,
    ],
    editorProps: {
      attributes: { class: 'composer__editor', role: 'textbox', 'aria-multiline': 'true', 'aria-label': t('reply.editor') },
      handleKeyDown: (_view, event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          send.current();
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor: current }) => {
      typing.keystroke();
      persist.current(current.isEmpty ? '' : current.getHTML());
    },
  });
  // The server's draft (written on another device) replaces what the composer opened with.
  applyDraft.current = (d) => {
    if (editor && !editor.isDestroyed) editor.commands.setContent(d.html, { emitUpdate: false });
    setMode(d.mode);
    setFiles(d.files);
  };
  // The mode and the attachments are part of the draft too (read through draftParts).
  // biome-ignore lint/correctness/useExhaustiveDependencies: save again when either changes
  useEffect(() => {
    // Not from a destroyed editor: it has no schema left to serialise with.
    if (editor && !editor.isDestroyed) persist.current(editor.isEmpty ? '' : editor.getHTML());
  }, [editor, mode, files]);

  // The placeholder follows the mode.
  // biome-ignore lint/correctness/useExhaustiveDependencies: redraw when the mode changes
  useEffect(() => {
    editor?.view.dispatch(editor.state.tr);
  }, [mode, editor]);

  // The Idempotency-Key of the request last tried. Send pressed again for the same content (its
  // answer was lost) reuses it, so the server answers the first message instead of posting twice;
  // edited content is another request and gets a new key (the server refuses a key reused for
  // different content). Forgotten once a send succeeds.
  const attempt = useRef<{ request: string; key: string } | null>(null);
  const create = useMutation({
    mutationFn: ({ body, key }: { body: { message: string; private: boolean; attachments: string[] }; key: string }) =>
      unwrap(
        api.POST('/api/v1/conversations/{cuuid}/messages', {
          params: { path: { cuuid: conversationUuid } },
          body: { ...body, content_type: 'html' },
          headers: { 'Idempotency-Key': key },
        }),
      ),
    onSuccess: (message) => {
      attempt.current = null;
      addMessageToCache(client, message);
      void client.invalidateQueries({ queryKey: keys.conversations.lists });
      void client.invalidateQueries({ queryKey: keys.conversations.detail(conversationUuid), exact: true });
      draft.sent();
      // The composer may be gone (the agent opened another conversation while it was sending).
      if (editor && !editor.isDestroyed) editor.commands.clearContent(false);
      setFiles([]);
    },
    onError: (error) => toast(error.message, 'error'),
  });

  const rewrite = useMutation({
    mutationFn: (promptKey: string) =>
      unwrap(api.POST('/api/v1/ai/completion', { body: { prompt_key: promptKey, content: editor?.getHTML() ?? '' } })),
    onSuccess: (text) => editor?.commands.setContent(text),
    onError: (error) => toast(error.message, 'error'),
  });

  const empty = !editor || editor.isEmpty;
  send.current = () => {
    if (!editor || create.isPending || (editor.isEmpty && files.length === 0)) return;
    // A colleague writing a reply too? Asked first (features/presence/replyGuard.tsx).
    guard.send(mode === 'reply', () => {
      typing.stop();
      const body = { message: editor.isEmpty ? '' : editor.getHTML(), private: mode === 'note', attachments: files.map((f) => f.uuid) };
      const request = JSON.stringify(body);
      if (attempt.current?.request !== request) attempt.current = { request, key: crypto.randomUUID() };
      draft.sending();
      create.mutate({ body, key: attempt.current.key });
    });
  };

  const attach = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const chosen = [...list];
    setUploading(chosen.map((f) => f.name).join(', '));
    try {
      const uploaded = await uploadFiles(chosen);
      setFiles((current) => [...current, ...uploaded]);
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error');
    } finally {
      setUploading(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const tool = (label: string, Icon: LucideIcon, run: () => void, active: boolean) => (
    <Button size="sm" variant="ghost" icon aria-label={label} title={label} aria-pressed={active} onClick={run}>
      <Icon size={16} aria-hidden />
    </Button>
  );

  return (
    <section className={`composer composer--${mode}`} aria-label={mode === 'note' ? t('reply.tab.note') : t('reply.tab.reply')}>
      <div className="composer__tabs" role="tablist">
        {(['reply', 'note'] as const).map((m) => (
          <button key={m} type="button" role="tab" aria-selected={mode === m} className="composer__tab" onClick={() => setMode(m)}>
            {m === 'reply' ? t('reply.tab.reply') : t('reply.tab.note')}
          </button>
        ))}
      </div>
      <div className="composer__toolbar" role="toolbar" aria-label={t('reply.editor')}>
        {tool(t('reply.bold'), Bold, () => editor?.chain().focus().toggleBold().run(), editor?.isActive('bold') ?? false)}
        {tool(t('reply.italic'), Italic, () => editor?.chain().focus().toggleItalic().run(), editor?.isActive('italic') ?? false)}
        {tool(t('reply.bulletList'), List, () => editor?.chain().focus().toggleBulletList().run(), editor?.isActive('bulletList') ?? false)}
        {tool(
          t('reply.orderedList'),
          ListOrdered,
          () => editor?.chain().focus().toggleOrderedList().run(),
          editor?.isActive('orderedList') ?? false,
        )}
        {tool(t('reply.code'), Code, () => editor?.chain().focus().toggleCode().run(), editor?.isActive('code') ?? false)}
        {tool(
          t('reply.link'),
          Link,
          () => {
            const href = window.prompt(t('reply.linkPrompt'), editor?.getAttributes('link')['href'] ?? 'https://');
            if (href === null) return;
            if (href === '') editor?.chain().focus().unsetLink().run();
            else editor?.chain().focus().extendMarkRange('link').setLink({ href }).run();
          },
          editor?.isActive('link') ?? false,
        )}
        <span className="composer__spacer" />
        <MacroMenu conversationUuid={conversationUuid} onText={(html) => editor?.chain().focus().insertContent(html).run()} />
        {ai.data?.enabled && (prompts.data ?? []).length > 0 ? (
          <DropdownMenu
            align="end"
            trigger={
              <Button size="sm" variant="ghost" loading={rewrite.isPending}>
                {rewrite.isPending ? t('reply.ai.working') : t('reply.ai')}
              </Button>
            }
            entries={[
              ...(empty ? [{ kind: 'label' as const, label: t('reply.ai.empty') }] : []),
              ...(prompts.data ?? []).map((prompt) => ({
                label: prompt.title,
                disabled: empty,
                onSelect: () => rewrite.mutate(prompt.key),
              })),
            ]}
          />
        ) : null}
      </div>
      <EditorContent editor={editor} />
      {files.length > 0 || uploading ? (
        <ul className="composer__files">
          {files.map((file) => (
            <li key={file.uuid} className="chip">
              <span>{file.name}</span>
              <button
                type="button"
                className="chip__remove"
                aria-label={t('reply.removeAttachment', { name: file.name })}
                onClick={() => setFiles(files.filter((f) => f.uuid !== file.uuid))}
              >
                <X size={12} aria-hidden />
              </button>
            </li>
          ))}
          {uploading ? <li className="chip chip--busy">{t('reply.uploading', { name: uploading })}</li> : null}
        </ul>
      ) : null}
      <div className="composer__actions">
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          onChange={(event) => void attach(event.target.files)}
          aria-label={t('reply.attach')}
        />
        <Button size="sm" variant="ghost" onClick={() => fileInput.current?.click()} loading={uploading !== null}>
          + {t('reply.attach')}
        </Button>
        <span className="composer__hint">{t('reply.shortcut')}</span>
        <Button
          variant="primary"
          loading={create.isPending}
          disabled={(empty && files.length === 0) || uploading !== null}
          onClick={() => send.current()}
        >
          {create.isPending ? t('reply.sending') : mode === 'note' ? t('reply.sendNote') : t('reply.send')}
        </Button>
      </div>
      {guard.dialog}
    </section>
  );
}
