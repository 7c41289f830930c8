import { DomainError } from '@app/domain';

/** Zulip's RequestVariableMissingError. */
export class MissingParamError extends DomainError {
  constructor(name: string) {
    super(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', 400, { var_name: name });
  }
}

/** Zulip's RequestConfusingParamsError: a parameter and its alias both given. */
export class ConfusingParamsError extends DomainError {
  constructor(first: string, second: string) {
    super(`Can't decide between '${first}' and '${second}' arguments`, 'REQUEST_CONFUSING_VAR', 400, {
      var_name1: first,
      var_name2: second,
    });
  }
}

/** Zulip's ApiParamValidationError, worded as zerver/lib/typed_endpoint.py ERROR_TEMPLATES. */
export class InvalidParamError extends DomainError {
  constructor(message: string) {
    super(message, 'BAD_REQUEST', 400);
  }
}
