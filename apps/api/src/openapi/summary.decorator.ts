import { SetMetadata } from '@nestjs/common';

export const SUMMARY = 'zulip:summary';

/** One line for the OpenAPI description. */
export const Summary = (text: string) => SetMetadata(SUMMARY, text);
