import { Injectable } from '@nestjs/common';
import type { AreaRegisterSections, RegisterSection } from '../events/area-contributions';
import { LinkifierQueries } from './linkifier.queries';

/**
 * `realm_linkifiers`: the organization's linkifiers, in order, for clients that declare the
 * `linkifier_url_template` capability (an empty list otherwise, as Zulip answers since feature
 * level 176). `realm_filters`: the legacy key, always an empty list.
 */
@Injectable()
export class LinkifiersRegisterSections implements AreaRegisterSections {
  constructor(private readonly linkifiers: LinkifierQueries) {}

  registerSections(): RegisterSection[] {
    return [
      {
        fetchType: 'realm_linkifiers',
        read: async (actor, options) => ({
          realm_linkifiers: options.clientCapabilities?.linkifier_url_template === true ? await this.linkifiers.list(actor.realmId) : [],
        }),
      },
      { fetchType: 'realm_filters', read: async () => ({ realm_filters: [] }) },
    ];
  }
}
