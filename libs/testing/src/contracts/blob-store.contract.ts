import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { type BlobStorePort, InvalidBlobKeyError } from '@app/application';

export type BlobStoreFixture = { store: BlobStorePort; cleanup(): Promise<void> };

const collect = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

/** The behaviour every BlobStorePort adapter must have. */
export function blobStoreContract(adapterName: string, open: () => Promise<BlobStoreFixture>) {
  describe(`BlobStorePort contract: ${adapterName}`, () => {
    let fixture: BlobStoreFixture;
    beforeAll(async () => (fixture = await open()));
    afterAll(async () => fixture.cleanup());
    const key = (name = 'file.png') => `test/${randomUUID()}/${name}`;

    it('gives back what was put, with its size and content type', async () => {
      const k = key();
      const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
      expect(await fixture.store.put(k, data, { contentType: 'image/png' })).toEqual({ size: 8, contentType: 'image/png' });
      expect(await fixture.store.get(k)).toEqual({ size: 8, contentType: 'image/png', data });
    });

    it('answers null for a key that holds nothing', async () => {
      expect(await fixture.store.get(key())).toBeNull();
      expect(await fixture.store.open(key())).toBeNull();
    });

    it('stores a stream and reads one back', async () => {
      const k = key('big.bin');
      const chunk = Buffer.alloc(64 * 1024, 7);
      const stored = await fixture.store.put(k, Readable.from((function* () { for (let i = 0; i < 40; i++) yield chunk; })()));
      expect(stored).toEqual({ size: 40 * chunk.length, contentType: null });
      const opened = await fixture.store.open(k);
      expect(opened?.size).toBe(40 * chunk.length);
      const data = await collect(opened!.stream);
      expect(data.length).toBe(40 * chunk.length);
      expect(data.every((b) => b === 7)).toBe(true);
    });

    it('rejects a put whose stream fails, keeping nothing under the key (an upload cut off at its size limit)', async () => {
      const k = key('cut.bin');
      const chunk = Buffer.alloc(64 * 1024, 3);
      const failing = Readable.from((function* () {
        for (let i = 0; i < 4; i++) yield chunk;
        throw new Error('body cut off');
      })());
      await expect(fixture.store.put(k, failing)).rejects.toThrow('body cut off');
      expect(await fixture.store.get(k)).toBeNull();
      expect(await fixture.store.delete(k)).toBe(false);
    });

    it('replaces an object put again under the same key', async () => {
      const k = key();
      await fixture.store.put(k, Buffer.from('first'), { contentType: 'text/plain' });
      await fixture.store.put(k, Buffer.from('second, longer'), { contentType: 'image/gif' });
      expect(await fixture.store.get(k)).toEqual({ size: 14, contentType: 'image/gif', data: Buffer.from('second, longer') });
    });

    it('deletes, and deleting again is harmless', async () => {
      const k = key();
      await fixture.store.put(k, Buffer.from('x'));
      expect(await fixture.store.delete(k)).toBe(true);
      expect(await fixture.store.get(k)).toBeNull();
      expect(await fixture.store.delete(k)).toBe(false);
    });

    it('keeps keys apart, nested ones included', async () => {
      const base = key('a');
      await fixture.store.put(base, Buffer.from('a'));
      await fixture.store.put(`${base}b`, Buffer.from('ab'));
      expect((await fixture.store.get(base))?.data.toString()).toBe('a');
      expect((await fixture.store.get(`${base}b`))?.data.toString()).toBe('ab');
    });

    it.each(['', '../escape', 'a/../../b', '/absolute', 'a//b', 'a/./b', 'back\\slash', 'nul\u0000byte', 'spa ce', 'x/'])(
      'refuses the unsafe key %j',
      async (bad) => {
        await expect(fixture.store.put(bad, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(fixture.store.get(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
        await expect(fixture.store.delete(bad)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      },
    );

    it('reports itself healthy', async () => {
      expect((await fixture.store.health()).ok).toBe(true);
    });
  });
}
