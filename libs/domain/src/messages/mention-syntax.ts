/** zerver/lib/mention.py silent_mention_syntax_for_user: `@_**Full Name|id**` (a mention that notifies nobody). */
export const silentMentionSyntax = (user: { userId: number; fullName: string }): string => `@_**${user.fullName}|${user.userId}**`;
