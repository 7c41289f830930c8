import type { Projection } from './shared/projection';
import { realmsProjection } from './realms/realms.projection';
import { credentialsProjection, usersProjection } from './users/users.projection';
import { channelsProjection } from './channels/channels.projection';
import { channelMembersProjection, subscriptionsProjection } from './subscriptions/subscriptions.projection';
import { messagesProjection, userTopicsProjection } from './messages/messages.projection';

/** Every read model of the product. A new area registers its projections here. */
export const ALL_PROJECTIONS: Projection[] = [
  realmsProjection,
  usersProjection,
  credentialsProjection,
  channelsProjection,
  subscriptionsProjection,
  channelMembersProjection,
  messagesProjection,
  userTopicsProjection,
];
