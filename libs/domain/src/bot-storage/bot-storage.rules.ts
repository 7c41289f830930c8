/** settings.USER_STATE_SIZE_LIMIT: the characters of keys and values one bot may store. */
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;

/**
 * Python's len() of a string (code points), without building an array: strings here may hold
 * millions of characters.
 */
export function pythonLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/** What one entry counts against the limit (get_bot_storage_size): its key and its value. */
export const entrySize = (key: string, value: string): number => pythonLength(key) + pythonLength(value);
