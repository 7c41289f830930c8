/** One user's status (id `<userId>`), as Zulip's UserStatus row holds it; empty strings when unset. */
export type UserStatusDocument = {
  user_id: number;
  realm_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
};

/** zerver/lib/user_status.py UserInfoDict: only what is set; `away` while presence is turned off. */
export type ApiUserStatus = { away?: true; status_text?: string; emoji_name?: string; emoji_code?: string; reaction_type?: string };

export const USER_STATUS = 'user_status';
