import { DomainError } from '../shared/domain-error';

/** zerver/lib/exceptions.py PushServiceNotConfiguredError. */
export class PushServiceNotConfiguredError extends DomainError {
  constructor() {
    super('Server is not configured to use push notification service.', 'PUSH_SERVICE_NOT_CONFIGURED');
  }
}

/** The JsonableErrors of register_push_device and the legacy token endpoints. */
export class PushRegistrationError extends DomainError {
  /** zerver/lib/devices.py check_device_id: no such device, or another user's. */
  static invalidDeviceId = () => new PushRegistrationError('Invalid `device_id`');
  static missingParameters = () =>
    new PushRegistrationError('Missing parameters: must provide either all push key fields, all token fields, or both.');
  static noRegistrationForKey = () => new PushRegistrationError('No push registration exists to rotate key for.');
  static noRegistrationForToken = () => new PushRegistrationError('No push registration exists to rotate token for.');
  static invalidPushKey = () => new PushRegistrationError('Invalid `push_key`');
  static tokenIdNotBase64 = () => new PushRegistrationError('`token_id` is not Base64 encoded');
  static badTokenLength = () => new PushRegistrationError('Empty or invalid length token');
  static invalidApnsToken = () => new PushRegistrationError('Invalid APNS token');
  static invalidAppId = () => new PushRegistrationError('Invalid app ID');
  static tokenDoesNotExist = () => new PushRegistrationError('Token does not exist');
}
