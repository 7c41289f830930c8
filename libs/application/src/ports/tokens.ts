export const EVENT_STORE = Symbol('EVENT_STORE');
export const READ_STORE = Symbol('READ_STORE');
export const CLOCK = Symbol('CLOCK');
export const ID_ALLOCATOR = Symbol('ID_ALLOCATOR');
export const RANDOM = Symbol('RANDOM');
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const USER_MESSAGE_STORE = Symbol('USER_MESSAGE_STORE');
