import type { WsLogger, WsReply } from './types';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A frame's text: browsers give a string, Node `ws` a Buffer, an ArrayBuffer or fragments. */
function frameText(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    return new TextDecoder().decode(data as ArrayBuffer);
  }
  if (Array.isArray(data)) {
    // ws 的分片 Buffer[]
    const parts = data.filter((d): d is Uint8Array => d instanceof Uint8Array);
    const total = parts.reduce((n, p) => n + p.byteLength, 0);
    const buf = new Uint8Array(total);
    let off = 0;
    for (const p of parts) {
      buf.set(p, off);
      off += p.byteLength;
    }
    return new TextDecoder().decode(buf);
  }
  return undefined;
}

/** One incoming frame as a JSON object; anything else is logged and dropped. */
export function decodeReply(raw: unknown, logger: WsLogger): WsReply | undefined {
  const text = frameText(raw);
  if (text === undefined) {
    logger.warn('[ws-core] 无法识别的消息类型', raw);
    return undefined;
  }
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    logger.warn('[ws-core] 无法解析的消息', text.slice(0, 200));
    return undefined;
  }
  return isRecord(msg) ? (msg as WsReply) : undefined;
}
