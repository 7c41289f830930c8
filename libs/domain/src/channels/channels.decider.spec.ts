import {
  channelCreated,
  channelDeactivated,
  channelDescriptionChanged,
  channelNameChanged,
  channelPermissionChanged,
  deciderSpec,
  defaultChannelAdded,
  defaultChannelRemoved,
  privateChannelCreated,
} from '@app/testing';
import {
  CannotAdministerChannelError,
  CannotManageDefaultChannelError,
  DefaultChannelCannotBePrivateError,
  MustBeAdministratorError,
  PrivateChannelCannotBeDefaultError,
  ChannelAlreadyDeactivatedError,
  ChannelAlreadyHasThatNameError,
  ChannelContentAccessRequiredError,
  ChannelDescriptionTooLongError,
  ChannelNameInUseError,
  ChannelNotDeactivatedError,
  InsufficientPermissionError,
  InvalidChannelIdError,
  InvalidChannelNameError,
  InvalidChannelParametersError,
  PrivateChannelWithoutSubscribersError,
  WebPublicChannelsDisabledError,
  channelIdByName,
  channelsDecider,
  foldEvents,
  type ChannelsCommand,
  type NewChannel,
  type UpdateChannel,
  type Viewer,
} from '@app/domain';

const given = deciderSpec(channelsDecider);
const NOW = '2026-02-03T04:05:06.000Z';

const hamlet: Viewer = { userId: 10, role: 'member' };
const cordelia: Viewer = { userId: 11, role: 'member' };
const iago: Viewer = { userId: 2, role: 'administrator' };
const polonius: Viewer = { userId: 12, role: 'guest' };
const operator: Viewer = { userId: null, role: 'operator' };

const newChannel = (overrides: Partial<NewChannel> = {}): NewChannel => ({
  channelId: 5, name: 'design', description: '', renderedDescription: '', inviteOnly: false, historyPublicToSubscribers: null, isWebPublic: false,
  ...overrides,
});
const create = (channels: NewChannel[], actor: Viewer = hamlet): ChannelsCommand => ({
  type: 'CreateChannels', data: { realmId: 1, actor, now: NOW, channels },
});
const update = (patch: Partial<UpdateChannel['data']>, actor: Viewer = hamlet): ChannelsCommand => ({
  type: 'UpdateChannel', data: { realmId: 1, actor, now: NOW, channelId: 1, isSubscribed: true, hasSubscribers: true, ...patch },
});
const deactivate = (channelId: number, actor: Viewer = hamlet, isSubscribed = true): ChannelsCommand => ({
  type: 'DeactivateChannel', data: { realmId: 1, actor, now: NOW, channelId, isSubscribed },
});

const general = channelCreated({ channelId: 1, name: 'general', creatorId: 10 });
const secret = privateChannelCreated({ channelId: 2, name: 'secret', creatorId: 11, actorId: 11 });

describe('channelsDecider', () => {
  describe('CreateChannels', () => {
    it('creates a public channel with public history, its creator and the command\'s time', () =>
      given([general]).when(create([newChannel({ description: 'Pixels', renderedDescription: '<p>Pixels</p>' })])).then([
        {
          type: 'ChannelCreated',
          data: {
            realmId: 1, channelId: 5, name: 'design', description: 'Pixels', renderedDescription: '<p>Pixels</p>', inviteOnly: false,
            historyPublicToSubscribers: true, isWebPublic: false, creatorId: 10, actorId: 10, at: NOW,
          },
        },
      ]));

    it('creates a private channel with protected history by default, shared history on request', () =>
      given([]).when(create([
        newChannel({ channelId: 5, name: 'a', inviteOnly: true }),
        newChannel({ channelId: 6, name: 'b', inviteOnly: true, historyPublicToSubscribers: true }),
      ])).thenMatches([
        { data: { channelId: 5, inviteOnly: true, historyPublicToSubscribers: false } },
        { data: { channelId: 6, inviteOnly: true, historyPublicToSubscribers: true } },
      ]));

    it('ignores a request for protected history on a public channel', () =>
      given([]).when(create([newChannel({ historyPublicToSubscribers: false })])).thenMatches([{ data: { historyPublicToSubscribers: true } }]));

    it('leaves existing channels alone, whatever the letter case', () =>
      given([general]).when(create([newChannel({ name: 'GENERAL' })])).thenNothingHappened());

    it('creates a name given twice in one request once', () =>
      given([]).when(create([newChannel({ channelId: 5, name: 'Design' }), newChannel({ channelId: 6, name: 'design' })]))
        .thenMatches([{ data: { channelId: 5, name: 'Design' } }]));

    it('strips the name and turns newlines of the description into spaces', () =>
      given([]).when(create([newChannel({ name: '  design \n', description: 'one\ntwo' })])).thenMatches([
        { data: { name: 'design', description: 'one two' } },
      ]));

    it('keeps an archived channel\'s name taken', () =>
      given([general, channelDeactivated(1)]).when(create([newChannel({ name: 'general' })])).thenNothingHappened());

    it('checks every name before creating anything', () =>
      given([]).when(create([newChannel({ name: 'fine' }), newChannel({ channelId: 6, name: 'x'.repeat(61) })]))
        .thenThrows(InvalidChannelNameError, 'Channel name too long (limit: 60 characters).'));

    it.each([[''], ['a\u0000b']])('refuses the invalid name %j', (name) =>
      given([]).when(create([newChannel({ name })])).thenThrows(InvalidChannelNameError));

    it('refuses a guest, for public and private channels', () => {
      given([]).when(create([newChannel()], polonius)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
      given([]).when(create([newChannel({ inviteOnly: true })], polonius)).thenThrows(InsufficientPermissionError);
    });

    it('a guest naming only existing channels creates nothing and is not refused here', () =>
      given([general]).when(create([newChannel({ name: 'general' })], polonius)).thenNothingHappened());

    it('refuses web-public channels', () =>
      given([]).when(create([newChannel({ isWebPublic: true })], iago)).thenThrows(WebPublicChannelsDisabledError, 'Web-public channels are not enabled.'));

    it('refuses a description over 1024 characters', () =>
      given([]).when(create([newChannel({ description: 'x'.repeat(1025) })])).thenThrows(ChannelDescriptionTooLongError));

    it('records no creator for the operator', () =>
      given([]).when(create([newChannel()], operator)).thenMatches([{ data: { creatorId: null, actorId: null } }]));
  });

  describe('UpdateChannel: name', () => {
    it('renames, with the old and the new name', () =>
      given([general]).when(update({ newName: ' lobby ' })).then([
        { type: 'ChannelNameChanged', data: { realmId: 1, channelId: 1, oldName: 'general', newName: 'lobby', actorId: 10, at: NOW } },
      ]));

    it('refuses the current name', () =>
      given([general]).when(update({ newName: 'general' })).thenThrows(ChannelAlreadyHasThatNameError, 'Channel already has that name.'));

    it('allows changing only the letter case', () =>
      given([general]).when(update({ newName: 'General' })).thenMatches([{ data: { oldName: 'general', newName: 'General' } }]));

    it('refuses a name another channel has, case-insensitively', () =>
      given([general, secret]).when(update({ newName: 'SECRET' })).thenThrows(ChannelNameInUseError, 'Channel name already in use.'));

    it('frees the old name and takes the new one', () => {
      const state = foldEvents(channelsDecider, [general, channelNameChanged(1, 'general', 'lobby')]);
      expect(channelIdByName(state, 'general')).toBeUndefined();
      expect(channelIdByName(state, 'LOBBY')).toBe(1);
      given([general, channelNameChanged(1, 'general', 'lobby'), secret]).when(update({ channelId: 2, newName: 'general' }, iago))
        .thenMatches([{ type: 'ChannelNameChanged', data: { channelId: 2, newName: 'general' } }]);
    });

    it.each([[''], ['x'.repeat(61)], ['tab\tin']])('refuses the invalid name %j', (newName) =>
      given([general]).when(update({ newName })).thenThrows(InvalidChannelNameError));
  });

  describe('UpdateChannel: description', () => {
    it('changes the description, newlines as spaces, with the rendered HTML', () =>
      given([general]).when(update({ description: { text: 'Hi\nthere', rendered: '<p>Hi there</p>' } })).then([
        {
          type: 'ChannelDescriptionChanged',
          data: { realmId: 1, channelId: 1, oldDescription: '', newDescription: 'Hi there', renderedDescription: '<p>Hi there</p>', actorId: 10, at: NOW },
        },
      ]));

    it('does nothing when the description is unchanged', () =>
      given([general, channelDescriptionChanged(1, '', 'Hi')]).when(update({ description: { text: 'Hi', rendered: '<p>Hi</p>' } })).thenNothingHappened());

    it('refuses more than 1024 characters', () =>
      given([general]).when(update({ description: { text: 'x'.repeat(1025), rendered: '' } })).thenThrows(ChannelDescriptionTooLongError));
  });

  describe('UpdateChannel: privacy', () => {
    const PUBLIC = { inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false };
    const PRIVATE_PROTECTED = { inviteOnly: true, historyPublicToSubscribers: false, isWebPublic: false };

    it('makes a channel private with protected history', () =>
      given([general]).when(update({ privacy: { isPrivate: true } })).then([
        { type: 'ChannelPermissionChanged', data: { realmId: 1, channelId: 1, old: PUBLIC, new: PRIVATE_PROTECTED, actorId: 10, at: NOW } },
      ]));

    it('makes a private channel public (an administrator who is subscribed)', () =>
      given([secret]).when(update({ channelId: 2, privacy: { isPrivate: false } }, iago)).thenMatches([
        { type: 'ChannelPermissionChanged', data: { old: PRIVATE_PROTECTED, new: PUBLIC } },
      ]));

    it('shares the history of a private channel', () =>
      given([secret]).when(update({ channelId: 2, privacy: { historyPublicToSubscribers: true } }, iago)).thenMatches([
        { data: { new: { inviteOnly: true, historyPublicToSubscribers: true, isWebPublic: false } } },
      ]));

    it('does nothing when the settings do not change', () =>
      given([general]).when(update({ privacy: { isPrivate: false } })).thenNothingHappened());

    it('refuses impossible combinations', () =>
      given([general]).when(update({ privacy: { historyPublicToSubscribers: false } })).thenThrows(InvalidChannelParametersError, 'Invalid parameters'));

    it('requires content access to change is_private, even for an administrator', () =>
      given([secret]).when(update({ channelId: 2, isSubscribed: false, privacy: { isPrivate: false } }, iago))
        .thenThrows(ChannelContentAccessRequiredError, 'Channel content access is required.'));

    it('lets an administrator outside a private channel change its history', () =>
      given([secret]).when(update({ channelId: 2, isSubscribed: false, privacy: { historyPublicToSubscribers: true } }, iago))
        .thenMatches([{ type: 'ChannelPermissionChanged' }]));

    it('refuses web-public', () =>
      given([general]).when(update({ privacy: { isWebPublic: true } }, iago)).thenThrows(WebPublicChannelsDisabledError));
  });

  describe('UpdateChannel: who may', () => {
    it('the creator, an ordinary member, administers their channel', () =>
      given([general]).when(update({ newName: 'lobby' }, hamlet)).thenMatches([{ type: 'ChannelNameChanged' }]));

    it('another member who can see the channel may not', () =>
      given([general]).when(update({ newName: 'lobby', isSubscribed: false }, cordelia))
        .thenThrows(CannotAdministerChannelError, 'You do not have permission to administer this channel.'));

    it('someone who cannot see the channel is told it does not exist', () => {
      given([secret]).when(update({ channelId: 2, newName: 'x', isSubscribed: false }, hamlet)).thenThrows(InvalidChannelIdError, 'Invalid channel ID');
      given([general]).when(update({ newName: 'x', isSubscribed: false }, polonius)).thenThrows(InvalidChannelIdError);
    });

    it('an administrator may rename a private channel they are not subscribed to', () =>
      given([secret]).when(update({ channelId: 2, isSubscribed: false, newName: 'hidden' }, iago)).thenMatches([{ type: 'ChannelNameChanged' }]));

    it('an unknown channel is an invalid channel id', () =>
      given([general]).when(update({ channelId: 99, newName: 'x' }, iago)).thenThrows(InvalidChannelIdError));

    it('changes nothing when a later check fails', () =>
      given([general, secret]).when(update({ description: { text: 'new', rendered: '' }, newName: 'secret' })).thenThrows(ChannelNameInUseError));

    it('applies every change of one request in Zulip\'s order', () =>
      given([general]).when(update({ privacy: { isPrivate: true }, description: { text: 'd', rendered: '<p>d</p>' }, newName: 'x' })).thenMatches([
        { type: 'ChannelPermissionChanged' }, { type: 'ChannelDescriptionChanged' }, { type: 'ChannelNameChanged' },
      ]));
  });

  describe('UpdateChannel: unarchive', () => {
    it('unarchives an archived channel', () =>
      given([general, channelDeactivated(1)]).when(update({ unarchive: true }, iago)).then([
        { type: 'ChannelReactivated', data: { realmId: 1, channelId: 1, actorId: 2, at: NOW } },
      ]));

    it('refuses a channel that is not archived', () =>
      given([general]).when(update({ unarchive: true }, iago)).thenThrows(ChannelNotDeactivatedError, 'Channel is not currently deactivated'));

    it('refuses a private channel without subscribers', () =>
      given([secret, channelDeactivated(2)]).when(update({ channelId: 2, unarchive: true, hasSubscribers: false }, iago))
        .thenThrows(PrivateChannelWithoutSubscribersError, 'Channel is private and have no subscribers'));
  });

  describe('DeactivateChannel', () => {
    it('archives a channel', () =>
      given([general]).when(deactivate(1, iago)).then([{ type: 'ChannelDeactivated', data: { realmId: 1, channelId: 1, actorId: 2, at: NOW } }]));

    it('lets the creator archive their channel', () => given([general]).when(deactivate(1, hamlet)).thenMatches([{ type: 'ChannelDeactivated' }]));

    it('refuses another member', () => given([general]).when(deactivate(1, cordelia, false)).thenThrows(CannotAdministerChannelError));

    it('refuses a channel that is already archived', () =>
      given([general, channelDeactivated(1)]).when(deactivate(1, iago)).thenThrows(ChannelAlreadyDeactivatedError, 'Channel is already deactivated'));

    it('refuses an unknown channel', () => given([]).when(deactivate(7, iago)).thenThrows(InvalidChannelIdError));

    it('lets an administrator archive a private channel they are not in', () =>
      given([secret]).when(deactivate(2, iago, false)).thenMatches([{ type: 'ChannelDeactivated' }]));
  });

  describe('default channels', () => {
    const addDefault = (channelId: number, actor: Viewer = iago, isSubscribed = false): ChannelsCommand => ({
      type: 'AddDefaultChannel', data: { realmId: 1, actor, now: NOW, channelId, isSubscribed },
    });
    const removeDefault = (channelId: number, actor: Viewer = iago, isSubscribed = false): ChannelsCommand => ({
      type: 'RemoveDefaultChannel', data: { realmId: 1, actor, now: NOW, channelId, isSubscribed },
    });
    const added = { type: 'DefaultChannelAdded' as const, data: { realmId: 1, channelId: 1, defaultChannelIds: [1], actorId: 2, at: NOW } };
    const removed = { type: 'DefaultChannelRemoved' as const, data: { realmId: 1, channelId: 1, defaultChannelIds: [], actorId: 2, at: NOW } };

    it('adds a public channel once', () => {
      given([general]).when(addDefault(1)).then([added]);
      given([general, defaultChannelAdded(1)]).when(addDefault(1)).then([]);
      given([general]).when(addDefault(1, operator)).thenMatches([{ type: 'DefaultChannelAdded' }]);
    });

    it('is for administrators', () => {
      for (const actor of [hamlet, polonius, { userId: 13, role: 'moderator' } as Viewer]) {
        given([general]).when(addDefault(1, actor, true)).thenThrows(MustBeAdministratorError, 'Must be an organization administrator');
        given([general, defaultChannelAdded(1)]).when(removeDefault(1, actor, true)).thenThrows(MustBeAdministratorError);
      }
    });

    it('refuses unknown, archived and unreachable channels as "Invalid channel ID", and private ones', () => {
      given([]).when(addDefault(7)).thenThrows(InvalidChannelIdError, 'Invalid channel ID');
      given([general, channelDeactivated(1)]).when(addDefault(1)).thenThrows(InvalidChannelIdError);
      given([secret]).when(addDefault(2, iago, false)).thenThrows(InvalidChannelIdError);
      given([secret]).when(addDefault(2, iago, true)).thenThrows(PrivateChannelCannotBeDefaultError, 'Private channels cannot be made default.');
    });

    it('removes a default channel; one that is not default records nothing', () => {
      given([general, defaultChannelAdded(1)]).when(removeDefault(1)).then([removed]);
      given([general]).when(removeDefault(1)).then([]);
      given([general, defaultChannelAdded(1), defaultChannelRemoved(1)]).when(removeDefault(1)).then([]);
      given([]).when(removeDefault(7)).thenThrows(InvalidChannelIdError);
    });

    it('takes an archived channel out of the defaults, before archiving it', () =>
      given([general, defaultChannelAdded(1)])
        .when(deactivate(1, iago))
        .then([removed, { type: 'ChannelDeactivated', data: { realmId: 1, channelId: 1, actorId: 2, at: NOW } }]));

    it('keeps a default channel public (update_stream_backend)', () => {
      const makePrivate = { privacy: { isPrivate: true } };
      given([general, defaultChannelAdded(1)]).when(update(makePrivate, iago)).thenThrows(DefaultChannelCannotBePrivateError, 'A default channel cannot be private.');
      given([general]).when(update({ ...makePrivate, isDefault: true }, iago)).thenThrows(DefaultChannelCannotBePrivateError);
      given([secret]).when(update({ channelId: 2, isDefault: true }, iago)).thenThrows(DefaultChannelCannotBePrivateError);
      given([general, defaultChannelAdded(1)])
        .when(update({ ...makePrivate, isDefault: false }, iago))
        .thenMatches([{ type: 'ChannelPermissionChanged' }, { type: 'DefaultChannelRemoved' }]);
    });

    it('changes the defaults by PATCH for administrators only, and only when it changes', () => {
      given([general]).when(update({ isDefault: true }, iago)).then([added]);
      given([general, defaultChannelAdded(1)]).when(update({ isDefault: true }, iago)).then([]);
      given([general, defaultChannelAdded(1)]).when(update({ isDefault: false }, iago)).then([removed]);
      // The creator administers the channel but may not change the defaults.
      given([general]).when(update({ isDefault: true }, hamlet)).thenThrows(CannotManageDefaultChannelError, 'You do not have permission to change default channels.');
      given([general, channelDeactivated(1)]).when(update({ isDefault: true }, iago)).thenThrows(InvalidChannelIdError);
    });

    it('records every default channel after the change, by id', () => {
      const other = channelCreated({ channelId: 3, name: 'other', creatorId: 10 });
      given([general, other, defaultChannelAdded(3)]).when(addDefault(1)).thenMatches([{ data: { channelId: 1, defaultChannelIds: [1, 3] } }]);
      given([general, other, defaultChannelAdded(3), defaultChannelAdded(1, [1, 3])]).when(removeDefault(3)).thenMatches([{ data: { channelId: 3, defaultChannelIds: [1] } }]);
      given([general, other, defaultChannelAdded(3), defaultChannelAdded(1, [1, 3])]).when(deactivate(1, iago)).thenMatches([{ data: { defaultChannelIds: [3] } }, { type: 'ChannelDeactivated' }]);
      given([general, other, defaultChannelAdded(3)]).when(update({ isDefault: true }, iago)).thenMatches([{ data: { defaultChannelIds: [1, 3] } }]);
    });

    it('makes channels it creates default after creating them all, each event with the list so far', () =>
      given([defaultChannelAdded(1)])
        .when(create([newChannel({ channelId: 5, name: 'a', isDefault: true }), newChannel({ channelId: 6, name: 'b', isDefault: true })], iago))
        .thenMatches([
          { type: 'ChannelCreated', data: { channelId: 5 } },
          { type: 'ChannelCreated', data: { channelId: 6 } },
          { type: 'DefaultChannelAdded', data: { channelId: 5, defaultChannelIds: [5] } },
          { type: 'DefaultChannelAdded', data: { channelId: 6, defaultChannelIds: [5, 6] } },
        ]));

    it('refuses to create a default channel for a non-administrator, or a private one', () => {
      given([]).when(create([newChannel({ isDefault: true })], hamlet)).thenThrows(InsufficientPermissionError, 'Insufficient permission');
      given([]).when(create([newChannel({ isDefault: true, inviteOnly: true })], iago)).thenThrows(DefaultChannelCannotBePrivateError);
    });

    it('evolves isDefault', () => {
      expect(foldEvents(channelsDecider, [general, defaultChannelAdded(1)]).channels[1].isDefault).toBe(true);
      expect(foldEvents(channelsDecider, [general, defaultChannelAdded(1), defaultChannelRemoved(1)]).channels[1].isDefault).toBe(false);
    });
  });

  describe('evolve', () => {
    it('follows privacy changes', () => {
      const state = foldEvents(channelsDecider, [
        general,
        channelPermissionChanged(1, { inviteOnly: false, historyPublicToSubscribers: true, isWebPublic: false }, { inviteOnly: true, historyPublicToSubscribers: true, isWebPublic: false }),
      ]);
      expect(state.channels[1]).toMatchObject({ inviteOnly: true, historyPublicToSubscribers: true });
    });
  });
});
