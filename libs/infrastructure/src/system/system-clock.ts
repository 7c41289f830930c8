import type { ClockPort } from '@app/application';

export class SystemClock implements ClockPort {
  now(): Date {
    return new Date();
  }
}
