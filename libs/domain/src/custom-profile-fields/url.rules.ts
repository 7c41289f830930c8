/**
 * Django's URLValidator (which Zulip's check_url uses), for http, https, ftp and ftps URLs: an
 * optional user:password@, a host name with a top-level domain, "localhost", an IPv4 address or a
 * bracketed IPv6 address, an optional port, then any path, query or fragment without whitespace.
 */
const UL = '\\u00a1-\\uffff';
const IPV4 = '(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)(?:\\.(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)){3}';
const IPV6 = '\\[[0-9a-f:.]+\\]';
const HOSTNAME = `[a-z${UL}0-9](?:[a-z${UL}0-9-]{0,61}[a-z${UL}0-9])?`;
const DOMAIN = `(?:\\.(?!-)[a-z${UL}0-9-]{1,63}(?<!-))*`;
const TLD = `\\.(?!-)(?:[a-z${UL}-]{2,63}|xn--[a-z0-9]{1,59})(?<!-)\\.?`;
const HOST = `(?:${HOSTNAME}${DOMAIN}${TLD}|localhost)`;
const URL_PATTERN = new RegExp(
  `^(?:http|https|ftp|ftps)://(?:[^\\s:@/]+(?::[^\\s:@/]*)?@)?(?:${IPV4}|${IPV6}|${HOST})(?::[0-9]{1,5})?(?:[/?#][^\\s]*)?$`,
  'iu',
);

export const isValidUrl = (value: string): boolean => value.length <= 2048 && URL_PATTERN.test(value);
