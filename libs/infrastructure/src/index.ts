export * from './infrastructure.module';
export * from './embedded/sqlite';
export * from './embedded/sqlite-event-store';
export * from './embedded/sqlite-read-store';
export * from './embedded/sqlite-id-allocator';
export * from './system/system-clock';
export * from './system/crypto-random';
export * from './system/logger';
