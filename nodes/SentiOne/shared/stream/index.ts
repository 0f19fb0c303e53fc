/**
 * The stream reader and its parts, as the transport, the triggers and the tests use them:
 * - `lineBuffer.ts`: the size limit, UTF-8 decoding and the one partial-line buffer both framings share;
 * - `sse.ts`: a generic `text/event-stream` parser (WHATWG rules);
 * - `jsonLines.ts`: the JSON lines framing;
 * - `events.ts`: SentiOne's event kinds as typed items;
 * - `reader.ts`: {@link StreamReader}, bytes in, items out.
 */
export type { StreamItem, StreamStats } from './events';
export type { StreamReaderOptions } from './lineBuffer';
export { StreamReader, streamFormatFromContentType, type StreamFormat } from './reader';
export { SseParser, type SseEvent, type SseOversizedEvent, type SseParserHandlers } from './sse';
