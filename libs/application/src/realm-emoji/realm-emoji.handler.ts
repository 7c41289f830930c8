import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import {
  type AddRealmEmoji,
  detectImageType,
  EMOJI_IMAGE_TYPES,
  foldEvents,
  realmEmojiDecider,
  realmEmojiStream,
  type RealmEmojiEvent,
} from '@app/domain';
import type { BlobStorePort } from '../ports/blob-store.port';
import type { ClockPort } from '../ports/clock.port';
import type { EventStorePort } from '../ports/event-store.port';
import type { IdAllocatorPort } from '../ports/id-allocator.port';
import type { RandomPort } from '../ports/random.port';
import { BLOB_STORE, CLOCK, EVENT_STORE, ID_ALLOCATOR, RANDOM } from '../ports/tokens';
import { DeciderRunner } from '../shared/decider-runner';
import { ProjectionWaiter } from '../shared/projection-waiter';
import { AddRealmEmojiCommand, RemoveRealmEmojiCommand } from './realm-emoji.command';
import { emojiBlobKey } from './realm-emoji.documents';

/**
 * check_add_realm_emoji. The image must be stored before the event that names it, and nothing
 * may be stored for a refused request: so the decider first judges the request against the
 * stream as it is, the image is written, and the append re-decides; an append that fails after
 * all (a concurrent upload of the same name) removes the image again.
 */
@CommandHandler(AddRealmEmojiCommand)
export class AddRealmEmojiHandler implements ICommandHandler<AddRealmEmojiCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
    @Inject(ID_ALLOCATOR) private readonly ids: IdAllocatorPort,
    @Inject(RANDOM) private readonly random: RandomPort,
    @Inject(EVENT_STORE) private readonly events: EventStorePort,
    @Inject(BLOB_STORE) private readonly blobs: BlobStorePort,
  ) {}

  async execute({ context: { actor }, name, files }: AddRealmEmojiCommand) {
    const stream = realmEmojiStream(actor.realmId);
    const [file] = files;
    const contentType = files.length === 1 ? detectImageType(file.data) : null;
    const command = (emojiId: number, fileName: string): AddRealmEmoji => ({
      type: 'AddRealmEmoji',
      data: {
        realmId: actor.realmId, actor, now: this.clock.now().toISOString(), emojiId, name, fileName,
        upload: { fileCount: files.length, size: file?.size ?? 0, contentType },
      },
    });
    const { events } = await this.events.readStream(stream);
    realmEmojiDecider.decide(command(0, ''), foldEvents(realmEmojiDecider, events.map((e) => ({ type: e.type, data: e.data }) as RealmEmojiEvent)));

    const emojiId = await this.ids.next('realm_emoji');
    // Zulip names the file by a salted hash of the id, so that names cannot be enumerated.
    const hash = createHash('sha256').update(`${this.random.uuid()}:${emojiId}`).digest('hex').slice(0, 8);
    const fileName = hash + EMOJI_IMAGE_TYPES[contentType!];
    const key = emojiBlobKey(actor.realmId, fileName);
    await this.blobs.put(key, file.data, { contentType });
    try {
      const { position } = await this.runner.run(realmEmojiDecider, stream, command(emojiId, fileName));
      await this.projections.waitFor(position);
    } catch (error) {
      await this.blobs.delete(key);
      throw error;
    }
    return { emojiId };
  }
}

@CommandHandler(RemoveRealmEmojiCommand)
export class RemoveRealmEmojiHandler implements ICommandHandler<RemoveRealmEmojiCommand> {
  constructor(
    private readonly runner: DeciderRunner,
    private readonly projections: ProjectionWaiter,
    @Inject(CLOCK) private readonly clock: ClockPort,
  ) {}

  async execute({ context: { actor }, name }: RemoveRealmEmojiCommand): Promise<void> {
    const { position } = await this.runner.run(realmEmojiDecider, realmEmojiStream(actor.realmId), {
      type: 'RemoveRealmEmoji',
      data: { realmId: actor.realmId, actor, now: this.clock.now().toISOString(), name },
    });
    await this.projections.waitFor(position);
  }
}
