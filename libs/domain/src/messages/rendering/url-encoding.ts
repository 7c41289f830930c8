/**
 * zerver/lib/url_encoding.py hash_util_encode: percent-encode every byte but [A-Za-z0-9_.~-]
 * (Python's quote with safe=""), then "." → "%2E" and "%" → ".", as the web app's
 * encodeHashComponent does.
 */
export function hashUtilEncode(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.~-]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.replace(/\./g, '%2E').replace(/%/g, '.');
}

/** zerver/lib/url_encoding.py encode_channel: `<id>-<name with spaces as dashes>`, hash-encoded. */
export const encodeChannel = (streamId: number, name: string): string => `${streamId}-${hashUtilEncode(name.replace(/ /g, '-'))}`;

/** zerver/lib/url_encoding.py stream_message_url, relative to the organization: `#narrow/channel/…/topic/…/near/<id>`. */
export const channelMessageNarrow = (streamId: number, streamName: string, topic: string, messageId: number): string =>
  `#narrow/channel/${encodeChannel(streamId, streamName)}/topic/${hashUtilEncode(topic)}/near/${messageId}`;
