export interface ClockPort {
  now(): Date;
}
