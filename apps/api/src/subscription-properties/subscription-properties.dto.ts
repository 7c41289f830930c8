import { InvalidSubscriptionColorError, SUBSCRIPTION_PROPERTIES, checkSubscriptionPropertyChange } from '@app/domain';
import type { SubscriptionPropertyChange } from '@app/application';
import { JsonParam, StringParam } from '../http/params/param.decorators';
import { type Shape, shapes } from '../http/params/json-shapes';
import { InvalidParamError } from '../http/params/param.errors';

const at = (base: string, key: string) => `${base}[${JSON.stringify(key)}]`;

/**
 * One SubscriptionPropertyChangeRequest, checked as pydantic checks it: the fields in order
 * (`stream_id`, `property`, `value`), then validate_terms. Other keys are ignored.
 */
const changeRequest: Shape<SubscriptionPropertyChange> = {
  describe: {
    type: 'object',
    properties: { stream_id: { type: 'integer' }, property: { enum: SUBSCRIPTION_PROPERTIES }, value: { oneOf: [{ type: 'boolean' }, { type: 'string' }] } },
    required: ['stream_id', 'property', 'value'],
  },
  parse: (input, p) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InvalidParamError(`${p} is not a dict`);
    const entry = input as Record<string, unknown>;
    for (const key of ['stream_id', 'property', 'value']) {
      if (entry[key] === undefined) throw new InvalidParamError(`${at(p, key)} field is missing: Field required`);
    }
    const channelId = shapes.int().parse(entry.stream_id, at(p, 'stream_id'));
    const property = shapes.string().parse(entry.property, at(p, 'property'));
    if (typeof entry.value !== 'boolean' && typeof entry.value !== 'string') throw new InvalidParamError(`${at(p, 'value')} is not a string`);
    try {
      checkSubscriptionPropertyChange(property, entry.value);
    } catch (error) {
      // A ValueError in a model validator, as typed_endpoint words it; the other refusals are plain.
      if (error instanceof InvalidSubscriptionColorError) throw new InvalidParamError(`Invalid ${p}: Value error, ${error.message}`);
      throw error;
    }
    return { channelId, property, value: entry.value };
  },
};

/** POST /users/me/subscriptions/properties. */
export class UpdateSubscriptionPropertiesDto {
  @JsonParam(shapes.list(changeRequest), { description: 'Changes: {stream_id, property, value}, applied in order.' })
  subscription_data!: SubscriptionPropertyChange[];
}

/** PATCH /users/me/subscriptions/{stream_id}. */
export class UpdateSubscriptionPropertyDto {
  @StringParam({ description: 'One of color, is_muted, in_home_view, pin_to_top, the four notification settings, wildcard_mentions_notify.' })
  property!: string;

  /** `Json[bool] | str`, left to right: JSON `true` / `false`, otherwise the text as sent. */
  @StringParam({ description: 'A boolean (JSON), or a hex color for color.' })
  value!: string;
}

export const booleanOrText = (raw: string): boolean | string => {
  try {
    const decoded: unknown = JSON.parse(raw);
    return typeof decoded === 'boolean' ? decoded : raw;
  } catch {
    return raw;
  }
};
