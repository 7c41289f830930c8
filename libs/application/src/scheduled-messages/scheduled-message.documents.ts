export const SCHEDULED_MESSAGES = 'scheduled_messages';

/** A scheduled message as `GET /scheduled_messages` returns it (ScheduledMessage.to_dict). */
export type ApiScheduledMessage =
  | { scheduled_message_id: number; type: 'stream'; to: number; topic: string; content: string; rendered_content: string; scheduled_delivery_timestamp: number; failed: boolean }
  | { scheduled_message_id: number; type: 'private'; to: number[]; content: string; rendered_content: string; scheduled_delivery_timestamp: number; failed: boolean };

/**
 * The read model: the API's scheduled message plus its owner and delivery state. Deleted
 * messages have no document; delivered ones keep theirs (`delivered: true`) as Zulip keeps the row.
 */
export type ScheduledMessageDocument = {
  scheduled_message_id: number;
  realm_id: number;
  sender_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  failure_message: string | null;
  read_by_sender: boolean;
  client: string;
  delivered: boolean;
  /** The id the delivery took (claimed) for the message it sends; then the id of the message sent. */
  claimed_message_id: number | null;
  delivered_message_id: number | null;
};

export const toApiScheduledMessage = (d: ScheduledMessageDocument): ApiScheduledMessage => {
  const common = {
    content: d.content,
    rendered_content: d.rendered_content,
    scheduled_delivery_timestamp: d.scheduled_delivery_timestamp,
    failed: d.failed,
  };
  return d.type === 'stream'
    ? { scheduled_message_id: d.scheduled_message_id, type: 'stream', to: d.to as number, topic: d.topic, ...common }
    : { scheduled_message_id: d.scheduled_message_id, type: 'private', to: d.to as number[], ...common };
};
