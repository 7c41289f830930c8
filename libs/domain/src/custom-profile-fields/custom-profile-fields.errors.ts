import { DomainError } from '../shared/domain-error';

/** The JsonableErrors of zerver/views/custom_profile_fields.py and the validators it calls. */
export class ProfileFieldError extends DomainError {}

export class ProfileFieldNotFoundError extends DomainError {
  constructor(fieldId: number) {
    super(`Field id ${fieldId} not found.`);
  }
}

export class ProfileSummaryLimitError extends DomainError {
  constructor() {
    super('Only 2 custom profile fields can be displayed in the profile summary.');
  }
}

/** The IntegrityError of the unique (realm, name) constraint: labels are unique, exactly as written. */
export class ProfileFieldLabelInUseError extends DomainError {
  constructor() {
    super('A field with that label already exists.');
  }
}

export class DefaultProfileFieldUpdateError extends DomainError {
  constructor() {
    super('Default custom field cannot be updated.');
  }
}

/** validate_user_custom_profile_data: a field that only administrators may change. */
export class ProfileFieldNotEditableError extends DomainError {
  constructor() {
    super('You are not allowed to change this field. Contact an administrator to update it.');
  }
}
