import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, ok } from '../http/schemas.ts';
import { Attachment, MediaParams, SignedQuery, UploadBody } from './media.schema.ts';
import * as media from './media.service.ts';
import { describeBytes, isMultipartFormData, uploadTmpDir, withReceivedFiles } from './media.upload.ts';

export function mediaRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Media'];
    // Multipart is parsed for this plugin's routes only (the upload reads it as a stream, with its own limits).
    await app.register(multipart, {
      limits: { fileSize: deps.config.uploadMaxBytes, files: 20, fields: 20, fieldSize: 65_536, parts: 40, headerPairs: 200 },
      throwFileSizeLimit: true,
    });

    app.post(
      '/media/upload',
      {
        config: { permission: 'messages:write' },
        schema: {
          tags,
          summary: 'Upload files to attach to a message',
          description:
            `multipart/form-data with one or more file parts named \`files\` (at most ${media.MAX_ATTACHMENTS}, each at most ${describeBytes(deps.config.uploadMaxBytes)}, set by UPLOAD_MAX_BYTES). ` +
            'Answers the stored files as unattached attachments; send their `uuid`s as `attachments` when posting a message (uploads never attached are removed after a day). ' +
            'Refusals store nothing: not multipart → 415; no file, an empty file, a file part under another name, too many files → 400; a file over the limit → 413. ' +
            'File names are reduced to their last path segment without control characters, at most 255 characters. ' +
            '`url` is a signed link that works without credentials until it expires.',
          consumes: ['multipart/form-data'],
          body: UploadBody,
          response: { 200: Envelope(Type.Array(Attachment)), ...errors(400, 401, 403, 413, 415) },
        },
        // The body is a multipart stream read by the handler; UploadBody only documents it.
        validatorCompiler: () => () => true,
        // Refuse other bodies before any parser reads them.
        preParsing: async (request) => {
          if (!isMultipartFormData(request.headers['content-type'])) {
            throw new InputError('Send multipart/form-data with one or more "files" file parts', undefined, 415);
          }
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const options = {
          tmpDir: uploadTmpDir(deps.config),
          maxFileBytes: deps.config.uploadMaxBytes,
          maxFiles: media.MAX_ATTACHMENTS,
          fileField: 'files',
        };
        const stored = await withReceivedFiles(request, options, (form) => media.storeUploads(deps, form.files, principal.userId));
        return ok(stored);
      },
    );

    const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
    app.get(
      '/media/:uuid',
      {
        config: { auth: 'public' },
        // Fastify's automatic HEAD route would read the whole object to throw it away; the one below does not.
        exposeHeadRoute: false,
        schema: {
          tags,
          summary: 'Download a file through its signed URL',
          description:
            'Public, but only with the `exp` and `sig` of a signed URL (the `url` of an attachment; valid 1 hour by default, MEDIA_URL_TTL_SECONDS). ' +
            'A missing, malformed, tampered or expired signature → 403; an unknown file → 404. ' +
            'Answers the bytes, not a JSON envelope: PNG, JPEG, GIF and WebP images (recognised by their content) inline as their image type, ' +
            'everything else as an `application/octet-stream` attachment, with `X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox` ' +
            'and `Cache-Control: private` for at most the link’s remaining lifetime. HEAD answers the same headers without the body.',
          params: MediaParams,
          querystring: SignedQuery,
          response: {
            200: {
              description: 'The file',
              content: { 'application/octet-stream': { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) } },
            },
            ...errors(403, 404),
          },
        },
      },
      async (request, reply) => {
        const download = await media.openDownload(deps, request.params.uuid, single(request.query.exp), single(request.query.sig));
        reply.headers(download.headers);
        return reply.send(download.object.stream);
      },
    );
    app.head(
      '/media/:uuid',
      { config: { auth: 'public' }, schema: { hide: true, params: MediaParams, querystring: SignedQuery } },
      async (request, reply) => {
        const download = await media.openDownload(deps, request.params.uuid, single(request.query.exp), single(request.query.sig));
        download.object.stream.destroy();
        reply.headers(download.headers);
        return reply.send();
      },
    );
  };
}
