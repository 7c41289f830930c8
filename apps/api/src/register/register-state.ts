import { Injectable } from '@nestjs/common';
import {
  DraftQueries,
  MutedUserQueries,
  SavedSnippetQueries,
  UnreadQueries,
  UserSettingsQueries,
  UserStatusQueries,
} from '@app/application';
import type { Actor } from '@app/domain';

/**
 * The parts of POST /register's initial state that exist so far, each under Zulip's key and
 * fetched only when the client asks for its type (`fetch_event_types`, defaulting to
 * `event_types`, defaulting to everything). The event system will add the rest.
 */
@Injectable()
export class RegisterState {
  private readonly sections: Record<string, (actor: Actor) => Promise<Record<string, unknown>>> = {
    drafts: async (actor) => ({ drafts: await this.drafts.list(actor.userId!) }),
    saved_snippets: async (actor) => ({ saved_snippets: await this.snippets.list(actor.userId!) }),
    muted_users: async (actor) => ({ muted_users: await this.mutedUsers.mutedUsers(actor.userId!) }),
    user_settings: async (actor) => ({ user_settings: await this.settings.settingsOf(actor.userId!) }),
    user_status: async (actor) => ({ user_status: await this.statuses.statusesForRegister(actor.realmId) }),
    // fetch_initial_state_data: `unread_msgs` when both `message` and `update_message_flags` are wanted.
    update_message_flags: async (actor) => ({ unread_msgs: await this.unread.unreadMsgs(actor) }),
  };
  /** Sections Zulip sends only when other fetch types are wanted too. */
  private readonly alsoRequires: Record<string, string[]> = { update_message_flags: ['message'] };

  constructor(
    private readonly drafts: DraftQueries,
    private readonly snippets: SavedSnippetQueries,
    private readonly mutedUsers: MutedUserQueries,
    private readonly settings: UserSettingsQueries,
    private readonly statuses: UserStatusQueries,
    private readonly unread: UnreadQueries,
  ) {}

  async fetch(actor: Actor, types: string[] | undefined): Promise<Record<string, unknown>> {
    const wanted =
      types === undefined
        ? Object.keys(this.sections)
        : types.filter((t) => t in this.sections && (this.alsoRequires[t] ?? []).every((r) => types.includes(r)));
    const parts = await Promise.all(wanted.map((type) => this.sections[type](actor)));
    return Object.assign({}, ...parts);
  }
}
