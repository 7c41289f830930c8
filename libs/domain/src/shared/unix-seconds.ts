/** Seconds since the epoch of an ISO time, as Zulip's API writes times (rounded down). */
export const unixSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
