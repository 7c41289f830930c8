import { AccessDeniedError, type EventStoreDBClient } from '@eventstore/db-client';
import { StreamRevisionConflictError } from '@app/application';
import { EsdbEventStore } from './esdb-event-store';

/**
 * The adapter against a stand-in for @eventstore/db-client 6.2's client, reproducing what the
 * client itself does (no EventStoreDB server here; the contract suite covers the rest with one).
 */
const resolvedAt = (revision: bigint) => ({
  event: { id: 'e', streamId: 's', revision, type: 'T', isJson: true, data: {}, metadata: {}, created: new Date(0), position: { commit: 10n, prepare: 10n } },
});

async function* events(...items: unknown[]) {
  for (const item of items) yield item;
}

describe('EsdbEventStore (against the client library)', () => {
  it('a conflict with throwOnAppendFailure=false names the stream’s actual revision, read back', async () => {
    // Client 6.2's batchAppend answers nextExpectedRevision = BigInt(hasCurrentStreamRevision()),
    // i.e. 1n, when the stream really is at revision 7.
    const client = {
      appendToStream: jest.fn(async () => ({ success: false, nextExpectedRevision: 1n, position: undefined })),
      readStream: jest.fn(() => events(resolvedAt(7n))),
    };
    const store = new EsdbEventStore(client as unknown as EventStoreDBClient);
    const error = await store
      .appendToStream('users-1', [{ id: '7f1b6c2e-0000-4000-8000-000000000001', type: 'T', data: {}, metadata: { schemaVersion: 1 } as never }], { expectedRevision: 3n })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamRevisionConflictError);
    expect((error as StreamRevisionConflictError).actual).toBe(7n);
    expect((error as StreamRevisionConflictError).expected).toBe(3n);
  });

  it('a conflict on a stream that does not exist says no_stream', async () => {
    const client = {
      appendToStream: jest.fn(async () => ({ success: false, nextExpectedRevision: 0n, position: undefined })),
      readStream: jest.fn(() => events()),
    };
    const store = new EsdbEventStore(client as unknown as EventStoreDBClient);
    const error = (await store
      .appendToStream('users-1', [{ id: '7f1b6c2e-0000-4000-8000-000000000002', type: 'T', data: {}, metadata: { schemaVersion: 1 } as never }], { expectedRevision: 0n })
      .catch((e: unknown) => e)) as StreamRevisionConflictError;
    expect(error.actual).toBe('no_stream');
  });

  it('/health says AccessDenied plainly when the user may not read $all, and how to fix it', async () => {
    const client = {
      readAll: jest.fn(() => {
        throw new AccessDeniedError({ message: 'Access denied', code: 7 } as never);
      }),
    };
    const health = await new EsdbEventStore(client as unknown as EventStoreDBClient).health();
    expect(health.ok).toBe(false);
    expect(health.detail).toMatch(/^AccessDenied: .*\$all/);
    expect(health.detail).toMatch(/\$admins or \$ops/);
  });

  it('/health passes other failures through', async () => {
    const client = {
      readAll: jest.fn(() => {
        throw new Error('14 UNAVAILABLE: No connection established');
      }),
    };
    expect(await new EsdbEventStore(client as unknown as EventStoreDBClient).health()).toEqual({ ok: false, detail: '14 UNAVAILABLE: No connection established' });
  });
});
