/**
 * send_failed_scheduled_message_notification: what Notification Bot tells the sender of a
 * scheduled message that could not be sent. `<time:…>` is datetime_to_global_time.
 */
export function failedScheduledMessageNotice(deliverAt: number, failureMessage: string): string {
  const when = new Date(deliverAt * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return (
    `The message you scheduled for <time:${when}> was not sent because of the following error:` +
    '\n\n' +
    `> ${failureMessage}` +
    '\n\n' +
    '[View scheduled messages](#scheduled)' +
    '\n\n'
  );
}
