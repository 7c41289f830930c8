import { EMOJI_CODES } from '../messages/rendering/emoji';
import { UNICODE_EMOJI_DATA } from './unicode-emoji.data';

/**
 * The Unicode emoji names by code point, as Zulip's emoji_api.json has them (the file
 * `server_emoji_data_url` names: `{ "code_to_names": { "1f600": ["grinning", …], … } }`), built
 * from the same table the server renders and checks reactions with: each code's names in the
 * table's order, then Zulip's own names the renderer adds.
 */
export function emojiCodeToNames(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (code: string, name: string) => {
    const names = (out[code] ??= []);
    if (!names.includes(name)) names.push(name);
  };
  for (const entry of UNICODE_EMOJI_DATA.split(';')) {
    if (entry === '') continue;
    const [code, names] = entry.split(':');
    for (const name of names.split(',')) if (name !== '') add(code, name);
  }
  for (const [name, code] of Object.entries(EMOJI_CODES)) add(code, name);
  return out;
}
