/**
 * A user's alert words live on one stream per user, `alert_words-<userId>`: the case-insensitive
 * de-duplication (add_user_alert_words) is a rule over that one user's list, and changing it
 * never contends with anyone else's writes.
 */
export const alertWordsStream = (userId: number) => `alert_words-${userId}`;
