export * from './linkifiers.streams';
export * from './linkifiers.events';
export * from './linkifiers.errors';
export * from './linkifiers.rules';
export * from './linkifiers.decider';
export * from './linkify';
export * from './url-template';
export { Re2SyntaxError, translateRe2Pattern } from './re2-pattern';
