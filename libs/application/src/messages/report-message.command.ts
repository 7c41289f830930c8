import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../shared/command-context';

/** `POST /messages/{message_id}/report` (zerver/views/message_report.py report_message_backend). */
export class ReportMessageCommand extends Command<Record<string, never>> {
  constructor(
    readonly context: CommandContext,
    readonly messageId: number,
    readonly request: { reportType: string; description: string },
  ) {
    super();
  }
}
