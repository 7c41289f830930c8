export const EVENT_STORE = Symbol('EVENT_STORE');
export const READ_STORE = Symbol('READ_STORE');
export const CLOCK = Symbol('CLOCK');
export const ID_ALLOCATOR = Symbol('ID_ALLOCATOR');
export const RANDOM = Symbol('RANDOM');
export const APP_CONFIG = Symbol('APP_CONFIG');
export const LOGGER = Symbol('LOGGER');
export const USER_MESSAGE_STORE = Symbol('USER_MESSAGE_STORE');
export const BLOB_STORE = Symbol('BLOB_STORE');
export const SCHEDULER = Symbol('SCHEDULER');
export const SNAPSHOT_STORE = Symbol('SNAPSHOT_STORE');
export const STORAGE_SCRUBBER = Symbol('STORAGE_SCRUBBER');
export const CREDENTIAL_STORE = Symbol('CREDENTIAL_STORE');
/** The key-encryption key (32 bytes) that seals the credential store's entries; kept outside every database. */
export const CREDENTIAL_KEY = Symbol('CREDENTIAL_KEY');
/** The content-key store (ContentKeyStorePort): the keys that seal message texts in the event log. */
export const CONTENT_KEY_STORE = Symbol('CONTENT_KEY_STORE');
