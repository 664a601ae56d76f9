// The part of the `ws` client the tests use (the package ships no types and @types/ws is not installed).
declare module 'ws' {
  import type { EventEmitter } from 'node:events';
  export default class WebSocket extends EventEmitter {
    constructor(url: string, options?: { headers?: Record<string, string>; maxPayload?: number; autoPong?: boolean });
    readonly readyState: number;
    send(data: string | Buffer, options?: { binary?: boolean }): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
    ping(): void;
  }
}
