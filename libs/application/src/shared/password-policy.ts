import type { AppConfig } from '@app/config';
import { DEVELOPMENT_PASSWORD_MIN_LENGTH, PASSWORD_MIN_LENGTH } from '@app/domain';

/** settings.PASSWORD_MIN_LENGTH / PASSWORD_MIN_GUESSES of this server: none required in development (zproject/dev_settings.py). */
export const passwordPolicy = (config: Pick<AppConfig, 'env'>): { minLength: number; minGuesses: number } =>
  config.env === 'development' ? { minLength: DEVELOPMENT_PASSWORD_MIN_LENGTH, minGuesses: 0 } : { minLength: PASSWORD_MIN_LENGTH, minGuesses: 10000 };
