import type { BusMessage, ClientEventBusPort } from '@app/application';

export type ClientEventBusFixture = { buses: [ClientEventBusPort, ClientEventBusPort]; cleanup(): Promise<void> };

/**
 * The behaviour every ClientEventBusPort adapter must have: what one instance publishes reaches
 * every subscribed instance (itself included), intact and in publish order.
 */
export function clientEventBusContract(adapterName: string, open: () => Promise<ClientEventBusFixture>) {
  describe(`ClientEventBusPort contract: ${adapterName}`, () => {
    let fixture: ClientEventBusFixture;
    const received: [BusMessage[], BusMessage[]] = [[], []];
    beforeAll(async () => {
      fixture = await open();
      await fixture.buses[0].subscribe((m) => received[0].push(m));
      await fixture.buses[1].subscribe((m) => received[1].push(m));
    });
    afterAll(async () => fixture.cleanup());

    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
    };

    it('delivers a published message to every instance, itself included, intact and in order', async () => {
      const messages: BusMessage[] = Array.from({ length: 20 }, (_, i) => ({
        userIds: [i, i + 1],
        event: { type: 'typing', op: i % 2 ? 'stop' : 'start', sender: { user_id: 7, email: 'ünïcødé@example.test' } },
      }));
      for (const m of messages) await fixture.buses[0].publish(m);
      await until(() => received[0].length >= 20 && received[1].length >= 20);
      expect(received[0]).toEqual(messages);
      expect(received[1]).toEqual(messages);
    });
  });
}
