// The upload route without a valid session: 401 whatever the body (content type, size), answered
// on arrival without reading the body.
import assert from 'node:assert/strict';
import type net from 'node:net';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, WIDGET, type WidgetInboxFixture } from '../../test/widget.ts';

describe('widget upload without a session', () => {
  let t: TestApp;
  let chat: WidgetInboxFixture;
  before(async () => {
    t = await buildTestApp();
    chat = await createWidgetInbox(t);
  });
  after(() => t.close());

  const upload = (headers: Record<string, string>, payload: string) =>
    t.app.inject({ method: 'POST', url: `${WIDGET}/media/upload`, payload, headers: { 'x-service-inbox-id': chat.uuid, ...headers } });

  it('is a 401 whatever the content type, and the 415 is kept for a caller with a session', async () => {
    for (const contentType of ['text/plain', 'application/json', 'application/octet-stream', 'multipart/form-data; boundary=x']) {
      assertError(await upload({ 'content-type': contentType }, '{}'), 401, 'UnauthorizedException', contentType);
      const bad = await upload({ 'content-type': contentType, authorization: `Bearer ${'x'.repeat(43)}` }, '{}');
      assertError(bad, 401, 'UnauthorizedException', `${contentType} with a bad token`);
    }
    const visitor = await startVisitor(t, chat.uuid);
    const wrongType = await upload({ 'content-type': 'text/plain', authorization: `Bearer ${visitor.token}` }, 'hello');
    assertError(wrongType, 415, 'InputException');
  });

  it('answers before the body arrives and closes the connection', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer without the body: ${Buffer.concat(chunks).toString('utf8')}`));
      }, 5000);
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      // Headers announcing 50 MB of text; not one byte of it is sent.
      socket.write(
        `POST ${WIDGET}/media/upload HTTP/1.1\r\nHost: localhost\r\nX-Service-Inbox-ID: ${chat.uuid}\r\n` +
          'Content-Type: text/plain\r\nContent-Length: 52428800\r\n\r\n',
      );
    });
    assert.match(answer, /^HTTP\/1\.1 401 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.match(answer, /UnauthorizedException/);
  });
});
