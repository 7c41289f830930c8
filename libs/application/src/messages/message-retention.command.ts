import { Command } from '@nestjs/cqrs';

/** Zulip's MESSAGE_BATCH_SIZE: messages deleted between two waits for the read models and a yield. */
export const RETENTION_BATCH_SIZE = 1000;

/** What one retention run deleted, by organization, then by channel (only those it deleted from). */
export type RetentionRunResult = {
  deleted: number;
  realms: {
    realmId: number;
    stringId: string;
    deleted: number;
    channels: { channelId: number; name: string; deleted: number }[];
    directMessages: number;
  }[];
};

/**
 * One run of the message retention job (zerver/lib/retention.py archive_messages): every message
 * older than its retention period is deleted, as the retention job's `MessageDeleted`. Run by the
 * timer of the process that runs scheduled jobs (MessageRetentionTimer) and `npm run cli -- retention`.
 */
export class RunMessageRetentionCommand extends Command<RetentionRunResult> {
  constructor(readonly options: { batchSize?: number } = {}) {
    super();
  }
}
