import { Injectable } from '@nestjs/common';
import type { AlertWordsAdded, AlertWordsRemoved } from '@app/domain';
import type { AreaClientEvents } from '../events/area-contributions';
import type { ClientEventDelivery, ClientEventMapperList, Recorded } from '../events/client-event-registry';
import { toUser } from '../events/deliveries';
import { AlertWordQueries } from './alert-word.queries';

/** do_add_alert_words, do_remove_alert_words (notify_alert_words): the user's whole current list. */
@Injectable()
export class AlertWordsClientEvents implements AreaClientEvents {
  constructor(private readonly queries: AlertWordQueries) {}

  clientEvents(): ClientEventMapperList {
    return {
      AlertWordsAdded: (e: Recorded<AlertWordsAdded>) => this.alertWordsOf(e.data.userId),
      AlertWordsRemoved: (e: Recorded<AlertWordsRemoved>) => this.alertWordsOf(e.data.userId),
    };
  }

  private async alertWordsOf(userId: number): Promise<ClientEventDelivery[]> {
    return toUser(userId, { type: 'alert_words', alert_words: await this.queries.wordsOf(userId) });
  }
}
